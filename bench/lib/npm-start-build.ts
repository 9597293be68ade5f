import { log } from './report.js';
import { ROOT, runTsc } from './run-tsc.js';
import { npmStartArgs } from './start-flags.js';

/**
 * Builds the bot as `npm run build` does (dist/, tsconfig.build.json) and returns the node arguments `npm start` runs
 * it with, for benchmarks whose bot processes should be what a host runs: the compiled JavaScript, npm start's flags
 * and scripts/launch.js's. Built once here, before any process starts: scripts/launch.js builds a stale dist/ itself,
 * and processes started together would each build it at the same time.
 */
export async function buildForNpmStart(): Promise<string[]> {
  const started = performance.now();
  await runTsc(['-p', 'tsconfig.build.json'], 'npm run build');
  const args = npmStartArgs();
  log(
    `  bot processes: node ${args.join(' ').replace(ROOT, '')} (built in ${((performance.now() - started) / 1000).toFixed(0)} s; as npm start runs the bot)`,
  );
  return args;
}
