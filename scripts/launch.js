// Runs one of the bot's compiled entry points: `npm start`, `npm run deploy-commands`, `npm run migrate-store`,
// `npm run backup`, `npm run forget-lost-secrets`, `npm run retry-set-aside`.
// Plain JavaScript on purpose: it must run in a production install (`npm ci --omit=dev`), which has neither
// TypeScript nor tsx. Where TypeScript is installed (a checkout with its dev dependencies), a missing or stale
// build is made first, so `git pull && npm start` runs what was pulled.
// First of all, the Node check: on a Node that package.json's engines does not name, one line and exit 1, before
// anything loads the SQLite module (which would end the process with a segmentation fault and no word).
import './check-node.cjs';

import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL, URL } from 'node:url';
import { setFlagsFromString } from 'node:v8';

const ENTRIES = {
  bot: 'dist/src/main.js',
  'deploy-commands': 'dist/scripts/deploy-commands.js',
  'migrate-store': 'dist/scripts/migrate-store.js',
  backup: 'dist/scripts/backup-store.js',
  'forget-lost-secrets': 'dist/scripts/forget-lost-secrets.js',
  'retry-set-aside': 'dist/scripts/retry-set-aside.js',
};
/** What the build compiles (tsconfig.build.json): newer sources than the build make it stale. */
const SOURCES = ['src', 'scripts', 'tsconfig.json', 'tsconfig.build.json'];

const root = fileURLToPath(new URL('..', import.meta.url));
const name = process.argv[2] ?? '';
const entry = ENTRIES[name];
if (!entry) {
  process.stderr.write(`scripts/launch.js: unknown entry "${name}" (one of: ${Object.keys(ENTRIES).join(', ')})\n`);
  process.exit(2);
}
// The entry point reads the rest of the arguments as its own (e.g. `--guild <id>`).
process.argv.splice(2, 1);

/** The newest modification time under `path` (a file or a folder), 0 when it does not exist. */
function newestChange(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(path)) newest = Math.max(newest, newestChange(join(path, child)));
  return newest;
}

function typescriptCompiler() {
  try {
    return createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

const built = join(root, entry);
const builtAt = existsSync(built) ? statSync(built).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map((source) => newestChange(join(root, source))));
if (builtAt === 0 || (sourcesAt > builtAt && existsSync(join(root, 'src')))) {
  const tsc = typescriptCompiler();
  if (tsc) {
    const build = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  } else if (builtAt === 0) {
    process.stderr.write(
      `Cannot start: ${entry} is missing and TypeScript is not installed here (a production install). Build where ` +
        'the dev dependencies are (`npm ci && npm run build`) and copy dist/ beside package.json, as the Dockerfile does.\n',
    );
    process.exit(1);
  } else {
    process.stderr.write(
      'dist/ is older than src/: running it as built (run `npm run build` to bring it up to date)\n',
    );
  }
}

// V8's memory saver mode: measured, the bot's heap keeps fewer pages beside its objects and the bot is 10–15 MB smaller
// after 10,000 events, for about 6 % more CPU a delivery (docs/hosting.md, Memory). Node 24's V8 has it, Node 22's does
// not, and Node refuses to start on a V8 flag it does not know: so it is set here, before the bot loads, rather than on
// npm start's command line (bench/lib/start-flags.ts gives the benchmarks' processes the same).
if (Number(process.versions.node.split('.')[0]) >= 24) setFlagsFromString('--memory-saver-mode');

await import(pathToFileURL(built).href);
