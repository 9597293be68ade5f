import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { findOldNode, npmCli, runUnder, type OldNode } from '../helpers/old-node.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

interface NodeCheck {
  satisfies(version: string, range: string): boolean;
  refusal(range: string, version: string, execPath: string): string;
}
// Plain CommonJS on purpose (it must run on any Node): loaded as the launcher loads it. On this Node it passes.
const check = createRequire(import.meta.url)(join(ROOT, 'scripts', 'check-node.cjs')) as NodeCheck;

/** npm's own semver, the one that reads `engines` for npm install (npm-install-checks). */
const semver = createRequire(npmCli())('semver') as { satisfies(version: string, range: string): boolean };

/** The files an install and the launcher read, and nothing else: no node_modules, no dist/, no sources. */
const HOST_FILES = ['package.json', 'package-lock.json', '.npmrc', 'scripts/check-node.cjs', 'scripts/launch.js'];

let old: OldNode;
let expected: string;
let folder: ReturnType<typeof makeTempDir>;

beforeAll(() => {
  old = findOldNode();
  expected = check.refusal(manifest.engines.node, old.version, old.path);
  folder = makeTempDir('bridge-old-node-');
  mkdirSync(join(folder.path, 'scripts'));
  for (const file of HOST_FILES) copyFileSync(join(ROOT, file), join(folder.path, file));
});

afterAll(() => folder.remove());

/** What a host reads: stderr's lines, npm's own `npm error`/`npm warn` lines left out. */
function ownLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line.trim() !== '' && !/^npm (error|warn|notice)\b/.test(line));
}

describe('on a Node older than package.json names', () => {
  it("npm start's command, with a complete configuration, says the one line and exits 1 instead of crashing", async () => {
    // What npm start, the Dockerfile's CMD and the systemd unit run (the container test holds them to one command).
    const [node, ...args] = manifest.scripts['start']?.split(' ') ?? [];
    expect(node).toBe('node');
    const data = makeTempDir('bridge-old-node-store-');
    try {
      const started = await runUnder(old.path, args, {
        cwd: ROOT,
        env: old.env({
          DISCORD_TOKEN: 'token-for-the-node-check',
          PUBLIC_URL: 'https://bot.example.test',
          SERVICE_URL: 'https://service.example.test',
          DISCORD_API_URL: 'http://127.0.0.1:9/api',
          STORE_URL: `sqlite://${data.path}/bot.sqlite`,
          PORT: '0',
        }),
        // Without the check, the launcher builds dist/ first when it is stale (tsc, under a minute), then crashes.
        timeoutMs: 100_000,
      });
      // Before the check, Node 20 got as far as opening the store: SIGSEGV in better-sqlite3, not a word.
      expect(started.signal).toBeNull();
      expect(started.stderr).toBe(`${expected}\n`);
      expect(started.stdout).toBe('');
      expect(started.code).toBe(1);
      expect(existsSync(join(data.path, 'bot.sqlite'))).toBe(false);
    } finally {
      data.remove();
    }
  }, 120_000);

  it('every entry point of scripts/launch.js says it before loading anything', async () => {
    for (const entry of ['bot', 'deploy-commands', 'migrate-store', 'backup', 'forget-lost-secrets']) {
      const run = await runUnder(old.path, ['scripts/launch.js', entry], { cwd: folder.path, env: old.env() });
      // Without the check: "Cannot start: dist/… is missing" (this folder has no build), never the line.
      expect({ entry, code: run.code, stderr: run.stderr }).toEqual({ entry, code: 1, stderr: `${expected}\n` });
    }
  });

  it('every npm script says it and runs nothing of its own', async () => {
    const cli = npmCli();
    const names = Object.keys(manifest.scripts);
    expect(names).toEqual(expect.arrayContaining(['preinstall', 'start', 'test', 'demo', 'dev', 'bench']));
    const runs: Array<{ name: string; code: number | null; lines: string[] }> = [];
    // Four npm processes at a time: each is a second of CPU, and the machine has two cores.
    for (let start = 0; start < names.length; start += 4) {
      const batch = names.slice(start, start + 4).map(async (name) => {
        const run = await runUnder(old.path, [cli, 'run', name], { cwd: folder.path, env: old.env() });
        return { name, code: run.code, lines: ownLines(run.stderr) };
      });
      runs.push(...(await Promise.all(batch)));
    }
    // Without the check, the folder's missing tsx, prettier or build would answer instead (127, or another line).
    expect(runs).toEqual(names.map((name) => ({ name, code: 1, lines: [expected] })));
  }, 60_000);

  it('npm install and npm ci refuse at once, naming the Node needed, before installing anything', async () => {
    const cli = npmCli();
    for (const command of ['install', 'ci']) {
      // --offline: nothing is fetched either way; without the refusal, npm would install from its cache or fail
      // for a package it has not cached, and leave node_modules behind.
      const run = await runUnder(old.path, [cli, command, '--offline', '--no-audit', '--no-fund'], {
        cwd: folder.path,
        env: old.env(),
        timeoutMs: 60_000,
      });
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr).toContain('npm error code EBADENGINE');
      expect(run.stderr).toContain(`npm error notsup Required: {"node":"${manifest.engines.node}"}`);
      expect(existsSync(join(folder.path, 'node_modules'))).toBe(false);
    }
  }, 120_000);
});

describe('the Node check', () => {
  it("reads package.json's engines as npm does (semver), for any version", () => {
    const range = manifest.engines.node;
    const versions = fc
      .tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }))
      .map(([major, minor, patch]) => `${major}.${minor}.${patch}`);
    fc.assert(
      fc.property(versions, (version) => check.satisfies(version, range) === semver.satisfies(version, range)),
      { numRuns: 2_000 },
    );
    for (const edge of ['20.20.2', '22.16.9', '22.17.0', '23.0.0', '24.0.0', '25.0.0', '26.1.0']) {
      expect({ edge, ok: check.satisfies(edge, range) }).toEqual({ edge, ok: semver.satisfies(edge, range) });
    }
  });

  it('is silent on the Node these tests run on, one package.json names', async () => {
    expect(semver.satisfies(process.versions.node, manifest.engines.node)).toBe(true);
    const run = await runUnder(process.execPath, ['scripts/check-node.cjs'], { cwd: folder.path, env: {} });
    expect(run).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('says in one line which Node is needed, which one this is, and where to read how to install it', () => {
    expect(check.refusal('^22.17.0 || ^24.0.0', 'v20.20.2', '/usr/bin/node')).toBe(
      'service-discord-bridge needs Node 24 (or 22.17 or a later 22); this is Node v20.20.2 (/usr/bin/node). ' +
        'Install Node 24 (docs/hosting.md#getting-node: a package source for your distribution, nvm, or the ' +
        'official binaries), then run this again.',
    );
  });
});
