import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { BenchGroup } from './group.js';
import { startFlags } from './lib/feed-bot-process.js';
import type { RecordChartRun } from './lib/record-chart-child.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, percentile, roundCount } from './lib/stats.js';

/**
 * What a chart image of /staff stats and /leaderboard costs (src/features/record/charts.ts: ECharts' SVG, then
 * resvg to PNG on libuv's thread pool), measured in a process of its own (lib/record-chart-child.ts, with the
 * node flags of `npm start`) where nothing else of the bot is loaded:
 *
 * - record.chart_ms: wall time of one chart, SVG to PNG (a member's hours over 31 days, the widest chart), p99
 *   over RENDERS renders after WARM_UP; limit 200 ms.
 * - record.chart_block_ms: p99 of the synchronous part of those renders (building the SVG: the event loop can
 *   do nothing else meanwhile); the longest gap between two turns of the event loop over them all is logged.
 * - record.chart_rss_first_mb, record.chart_rss_mb: what the renderer adds to the process's RSS (after full
 *   collections) from before its modules load, after the first chart and after the last. The leaderboard's chart
 *   is timed too (one after each hours chart), for scale.
 */
const WARM_UP = 5;
const RENDERS = roundCount(50);
const LIMIT_MS = 200;

function measureInChild(): Promise<RecordChartRun> {
  const child = fork(
    fileURLToPath(new URL('./lib/record-chart-child.ts', import.meta.url)),
    [String(WARM_UP), String(RENDERS)],
    {
      execArgv: ['--import', import.meta.resolve('tsx'), '--expose-gc', ...startFlags()],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  return new Promise((resolve, reject) => {
    let run: RecordChartRun | undefined;
    child.once('message', (message: RecordChartRun) => (run = message));
    child.once('error', reject);
    child.once('exit', (code) =>
      run ? resolve(run) : reject(new Error(`the chart process exited with code ${String(code)} before reporting`)),
    );
  });
}

export const recordChartGroup: BenchGroup = {
  name: 'record-chart',
  figures: [
    'record.chart_ms',
    'record.chart_vs_limit',
    'record.chart_block_ms',
    'record.chart_rss_first_mb',
    'record.chart_rss_mb',
  ],
  async run(figures) {
    log(
      `record-chart: one chart image, SVG (ECharts) to PNG (resvg), ${RENDERS} renders after ${WARM_UP} to warm up, ` +
        `in a process of its own (node flags of npm start); RSS after full collections`,
    );
    const run = await measureInChild();
    const { rss } = run;
    log(`  loading the renderer's modules: ${formatNumber(run.loadMs)} ms`);
    log(`  first chart (cold): ${formatNumber(run.firstMs)} ms, ${run.firstBytes} bytes of PNG`);
    const p99 = percentile(run.wall, 99);
    const blockP99 = percentile(run.sync, 99);
    log(`  hours chart, SVG to PNG: median ${formatNumber(median(run.wall))} ms, p99 ${formatNumber(p99)} ms`);
    log(`    slowest five: ${formatList([...run.wall].sort((a, b) => b - a).slice(0, 5))} ms`);
    log(
      `  of which on the event loop (the SVG): median ${formatNumber(median(run.sync))} ms, p99 ${formatNumber(blockP99)} ms; ` +
        `longest event-loop gap over all renders: ${formatNumber(run.longestGapMs)} ms`,
    );
    log(
      `  leaderboard chart: median ${formatNumber(median(run.boards))} ms, p99 ${formatNumber(percentile(run.boards, 99))} ms`,
    );
    log(
      `  RSS: ${formatNumber(rss.before)} MB before, ${formatNumber(rss.loaded)} MB with the modules loaded, ` +
        `${formatNumber(rss.first)} MB after the first chart, ${formatNumber(rss.last)} MB after ${run.renders}`,
    );
    log(`  limit: one chart ${LIMIT_MS} ms (p99)`);
    figures.add('record.chart_ms', p99, 'ms');
    figures.add('record.chart_vs_limit', p99 / LIMIT_MS, 'x');
    figures.add('record.chart_block_ms', blockP99, 'ms');
    figures.add('record.chart_rss_first_mb', rss.first - rss.before, 'MB');
    figures.add('record.chart_rss_mb', rss.last - rss.before, 'MB');
  },
};
