import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * What a host reads names only what the repository has: every file or folder a link or a code span of README.md,
 * CHANGELOG.md, ARCHITECTURE.md, bench/README.md and docs/ names exists, and every `npm run <script>` is a script of package.json. A file renamed or
 * removed fails here, not in a host's hands.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Folders a running bot or a build makes, which a clone does not have: named in the docs, never checked. */
const MADE_AT_RUN_TIME = ['dist/', 'data/', 'backups/', 'node_modules/', 'coverage/', 'test-artifacts/', 'secrets/'];
/**
 * Where the repository's own files are: a code span starting with one of these is a path. A `Name.md` in a code
 * span is a file name too: a document beside the project that a clone does not have was named so.
 */
const PROJECT_FOLDERS = ['src/', 'test/', 'docs/', 'scripts/', 'bench/', 'fakes/', 'commands/', 'demo/', '.ci/'];
const SKIPPED_FOLDERS = new Set(['node_modules', 'dist', 'coverage', 'test-artifacts', 'data', '.git']);

function markdownFiles(): string[] {
  const docs = readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join('docs', path));
  return ['README.md', 'CHANGELOG.md', 'ARCHITECTURE.md', 'bench/README.md', ...docs];
}

/** Every file's name in the repository (a bare `lane.ts` in the docs names one of them). */
function fileNames(folder = ROOT, names = new Set<string>()): Set<string> {
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    if (entry.isDirectory()) {
      if (!SKIPPED_FOLDERS.has(entry.name)) fileNames(join(folder, entry.name), names);
    } else {
      names.add(entry.name);
    }
  }
  return names;
}

const packageJson = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
  packages: Record<string, unknown>;
};
/** Package names (`discord.js`) look like file names: they name a dependency, not a file. */
const PACKAGES = new Set(Object.keys(lock.packages).map((path) => path.replace(/^.*node_modules\//, '')));
const NAMES = fileNames();

/** True when `path` (relative to the repository, or to the Markdown file's folder) exists; a `.js` may be built. */
function exists(path: string, from: string): boolean {
  const candidates = [path, join(dirname(from), path)].map((candidate) => normalize(candidate));
  return candidates.some(
    (candidate) =>
      existsSync(join(ROOT, candidate)) ||
      (candidate.endsWith('.js') && existsSync(join(ROOT, candidate.replace(/\.js$/, '.ts')))),
  );
}

interface Reference {
  file: string;
  kind: 'link' | 'path' | 'file name' | 'npm run';
  named: string;
}

/** What a Markdown file (or `text` written as if it were in it) names that this repository does not have. */
function missingIn(file: string, text = readFileSync(join(ROOT, file), 'utf8')): Reference[] {
  const found: Reference[] = [];
  for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^(https?:|mailto:|#)/.test(target)) continue;
    const path = relative(ROOT, join(ROOT, dirname(file), target.split('#')[0] ?? ''));
    if (!existsSync(join(ROOT, path))) found.push({ file, kind: 'link', named: target });
  }
  for (const [, span = ''] of text.matchAll(/`([^`\n]+)`/g)) {
    const path = span.trim().replace(/^\.\//, '').replace(/\/$/, '');
    // Commands, globs, placeholders, absolute paths and addresses are not the repository's paths.
    if (/[\s*<>…$:]/.test(path) || path.startsWith('/') || path === '') continue;
    if (MADE_AT_RUN_TIME.some((folder) => `${path}/`.startsWith(folder))) continue;
    const looksLikeFile = /^[\w.-]*[\w-]\.(ts|js|cjs|mjs|json|md|ya?ml)$/.test(path.split('/').at(-1) ?? '');
    if (path.includes('/') && (PROJECT_FOLDERS.some((folder) => path.startsWith(folder)) || looksLikeFile)) {
      if (!exists(path, file)) found.push({ file, kind: 'path', named: span });
    } else if (!path.includes('/') && looksLikeFile && !PACKAGES.has(path)) {
      const built = path.replace(/\.js$/, '.ts');
      if (!NAMES.has(path) && !NAMES.has(built)) found.push({ file, kind: 'file name', named: span });
    }
  }
  for (const [, script = ''] of text.matchAll(/npm run ([\w:-]+)/g)) {
    if (!(script in packageJson.scripts)) found.push({ file, kind: 'npm run', named: script });
  }
  return found;
}

describe('the docs a host reads', () => {
  it('name only files, folders and npm scripts the repository has', () => {
    const files = markdownFiles();
    expect(files).toEqual(expect.arrayContaining(['README.md', 'CHANGELOG.md', 'docs/hosting.md']));
    expect(files.flatMap((file) => missingIn(file))).toEqual([]);
  });

  it('tells a missing path, file name, link or script from what exists, a build output and a package', () => {
    const text = [
      'See [the page](no-such-page.md) and [hosting](hosting.md#memory), `scripts/no-such-script.ts`,',
      '`scripts/launch.js`, `no-such-helper.ts`, `chart-process.js` (built from its .ts), `discord.js`,',
      '`data/bot.sqlite`, `npm run no-such-script` and `npm run backup`.',
    ].join('\n');
    expect(missingIn('docs/hosting.md', text)).toEqual([
      { file: 'docs/hosting.md', kind: 'link', named: 'no-such-page.md' },
      { file: 'docs/hosting.md', kind: 'path', named: 'scripts/no-such-script.ts' },
      { file: 'docs/hosting.md', kind: 'file name', named: 'no-such-helper.ts' },
      { file: 'docs/hosting.md', kind: 'npm run', named: 'no-such-script' },
    ]);
  });
});
