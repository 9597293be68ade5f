import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { FeedBotRuntime } from './feed-bot-process.js';
import { log } from './report.js';
import { ROOT, runTsc } from './run-tsc.js';
import { startFlags } from './start-flags.js';

/**
 * Compiles the bot process of feed.rss_mb (lib/feed-bot-child.ts and everything it imports in src/)
 * to plain JavaScript, as `npm start` runs the bot. Under `--import tsx` Node 20 runs the loader's hooks on a
 * thread of their own, with a V8 isolate of its own: ~35 MB of RSS that is tsx's, not the bot's.
 * Type errors are not checked here (`--noCheck`, `npm test` does that): only the emitted JavaScript matters.
 */
/** Compiles into `<dir>/out` and returns the path of the compiled child module. */
export async function compileFeedBotChild(dir: string): Promise<string> {
  const out = join(dir, 'out');
  const args = [
    '--noCheck',
    '--outDir',
    out,
    '--rootDir',
    ROOT,
    '--module',
    'nodenext',
    '--moduleResolution',
    'nodenext',
    '--target',
    'es2022',
    '--verbatimModuleSyntax',
    '--resolveJsonModule',
    '--skipLibCheck',
    '--types',
    'node',
    join(ROOT, 'bench/lib/feed-bot-child.ts'),
  ];
  await runTsc(args, 'compiling the bot process');
  // ESM like the project, and the project's packages; its name and version, which the bot reads (src/base/version.ts).
  const { name, version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  writeFileSync(join(out, 'package.json'), JSON.stringify({ name, version, type: 'module' }));
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  return join(out, 'bench/lib/feed-bot-child.js');
}

/** npm start's node flags, each followed by a space, for the log line. */
const flagsOfStart = () =>
  startFlags()
    .map((flag) => `${flag} `)
    .join('');

/**
 * Runs `work` with the bot process's runtime: compiled into a temp dir removed afterwards, or tsx when
 * BENCH_FEED_TSX=1 (to see what the loader thread costs). Logs which.
 */
export async function withFeedBotRuntime<T>(work: (runtime: FeedBotRuntime) => Promise<T>): Promise<T> {
  if (process.env.BENCH_FEED_TSX === '1') {
    log(`  bot process: node --expose-gc ${flagsOfStart()}--import tsx bench/lib/feed-bot-child.ts (BENCH_FEED_TSX=1)`);
    return work('tsx');
  }
  const dir = mkdtempSync(join(tmpdir(), 'bridge-feed-build-'));
  try {
    const compiled = await compileFeedBotChild(dir);
    log(
      `  bot process: node --expose-gc ${flagsOfStart()}bench/lib/feed-bot-child.js (compiled with tsc; flags and JavaScript as npm start runs the bot)`,
    );
    return await work({ compiled });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
