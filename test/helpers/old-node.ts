import { execFileSync, spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { delimiter, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the tests' stand-in for an old Node is: a preload that makes the Node it runs in say it is 20.20.2. */
const PRETEND_OLD_NODE = fileURLToPath(new URL('../fixtures/pretend-node-20.cjs', import.meta.url));

/**
 * A Node older than package.json's engines, to run the bot's entry points under as a host with a distribution's
 * Node would: `path` is its binary; `pretend` when there is none on this machine and the tests stand in for one.
 */
export interface OldNode {
  path: string;
  version: string;
  pretend: boolean;
  /** The environment a child runs in: that Node first on PATH (or the stand-in preloaded in every Node). */
  env(extra?: Record<string, string>): NodeJS.ProcessEnv;
}

/**
 * The first Node older than 22 among TESTS_OLD_NODE (what .ci/run installs and names), the system's (/usr/bin/node,
 * /usr/local/bin/node) and the others on PATH. Without one, CI (CI=1) fails: it must prove the check on a real one;
 * elsewhere the Node running the tests stands in for one, preloaded with a file that makes it say v20.20.2.
 */
export function findOldNode(env: NodeJS.ProcessEnv = process.env): OldNode {
  const candidates = [
    env['TESTS_OLD_NODE'],
    '/usr/bin/node',
    '/usr/local/bin/node',
    ...(env['PATH'] ?? '').split(delimiter).map((folder) => join(folder, 'node')),
  ];
  for (const candidate of candidates) {
    if (!candidate || !existsSync(candidate)) continue;
    const version = versionOf(candidate);
    if (version && Number(version.slice(1).split('.')[0]) < 22) return realOldNode(candidate, version);
  }
  if (env['CI']) {
    throw new Error('CI must prove the Node check on a real Node older than 22: set TESTS_OLD_NODE (.ci/run does)');
  }
  process.stderr.write('No Node older than 22 on this machine: the Node check is tested on this one, told it is 20\n');
  return {
    path: process.execPath,
    version: 'v20.20.2',
    pretend: true,
    env: (extra = {}) => ({ ...process.env, NODE_OPTIONS: `--require ${PRETEND_OLD_NODE}`, ...extra }),
  };
}

function realOldNode(path: string, version: string): OldNode {
  const folder = dirname(path);
  return {
    path,
    version,
    pretend: false,
    env: (extra = {}) => {
      const rest = { ...process.env };
      // The tests' own Node must not leak into the child through what vitest or npm set.
      delete rest['NODE_OPTIONS'];
      return { ...rest, PATH: `${folder}${delimiter}${process.env['PATH'] ?? ''}`, ...extra };
    },
  };
}

function versionOf(node: string): string | undefined {
  try {
    return execFileSync(node, ['--version'], { encoding: 'utf8', env: {} }).trim();
  } catch {
    return undefined;
  }
}

/** npm's own script (npm-cli.js), run by a chosen Node: the npm this test run was started with, else PATH's. */
export function npmCli(env: NodeJS.ProcessEnv = process.env): string {
  const fromNpm = env['npm_execpath'];
  if (fromNpm && /npm-cli\.js$/.test(fromNpm)) return fromNpm;
  const onPath = execFileSync('sh', ['-c', 'command -v npm'], { encoding: 'utf8' }).trim();
  return realpathSync(onPath);
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `args` under `node`, to its end (killed after `timeoutMs`), with what it printed and how long it took. */
export function runUnder(
  node: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<Finished> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(node, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
  });
}
