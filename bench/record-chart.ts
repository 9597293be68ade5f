import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import type { BenchGroup } from './group.js';
import type { RecordChartRun } from './lib/record-chart-child.js';
import { log } from './lib/report.js';
import { startFlags } from './lib/start-flags.js';
import { formatList, formatNumber, median, percentile, roundCount } from './lib/stats.js';

/**
 * What a chart image of /staff stats and /leaderboard costs, drawn the way the bot draws it: ChartRenderer
 * (src/features/record/chart-renderer.ts) asks a chart process of its own (ECharts' SVG, then resvg's PNG).
 * Measured from a process of its own (lib/record-chart-child.ts, with the node flags of `npm start`) where nothing
 * else of the bot is loaded:
 *
 * - record.chart_ms: one chart asked and answered (a member's hours over 31 days, the widest chart) with the chart
 *   process running, p99 over RENDERS after WARM_UP; limit 200 ms. The first chart, which starts the process, is
 *   record.chart_first_ms.
 * - record.chart_block_ms: the longest gap between two turns of the asking process's event loop over all renders.
 * - record.chart_rss_mb: what charts add to the asking process's RSS (after full collections) from before the
 *   renderer's module loads to after the last chart; record.chart_process_rss_mb: the chart process's own RSS
 *   then, which it gives back when it exits after its idle time (timed too). The leaderboard's chart is timed
 *   as well (one after each hours chart), for scale.
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
    'record.chart_first_ms',
    'record.chart_block_ms',
    'record.chart_rss_mb',
    'record.chart_process_rss_mb',
  ],
  async run(figures) {
    log(
      `record-chart: one chart image asked of the chart process (ECharts' SVG, resvg's PNG), ${RENDERS} renders ` +
        `after ${WARM_UP} to warm up, from a process of its own (node flags of npm start); RSS after full collections`,
    );
    const run = await measureInChild();
    const { rss } = run;
    log(`  loading the renderer's module (not the renderer): ${formatNumber(run.loadMs)} ms`);
    log(`  first chart, starting the chart process: ${formatNumber(run.firstMs)} ms, ${run.firstBytes} bytes of PNG`);
    const p99 = percentile(run.wall, 99);
    log(`  hours chart, asked and answered: median ${formatNumber(median(run.wall))} ms, p99 ${formatNumber(p99)} ms`);
    log(`    slowest five: ${formatList([...run.wall].sort((a, b) => b - a).slice(0, 5))} ms`);
    log(
      `  leaderboard chart: median ${formatNumber(median(run.boards))} ms, p99 ${formatNumber(percentile(run.boards, 99))} ms`,
    );
    log(`  longest event-loop gap of the asking process over all renders: ${formatNumber(run.longestGapMs)} ms`);
    log(
      `  asking process RSS: ${formatNumber(rss.before)} MB before, ${formatNumber(rss.first)} MB after the first ` +
        `chart, ${formatNumber(rss.last)} MB after ${run.renders}; the chart process: ` +
        `${formatNumber(run.chartProcessRssMb)} MB, exited ${formatNumber(run.idleExitMs)} ms after the last chart ` +
        `(idle time 1,000 ms here, 60 s in the bot)`,
    );
    log(`  limit: one chart ${LIMIT_MS} ms (p99)`);
    figures.add('record.chart_ms', p99, 'ms');
    figures.add('record.chart_vs_limit', p99 / LIMIT_MS, 'x');
    figures.add('record.chart_first_ms', run.firstMs, 'ms');
    figures.add('record.chart_block_ms', run.longestGapMs, 'ms');
    figures.add('record.chart_rss_mb', rss.last - rss.before, 'MB');
    figures.add('record.chart_process_rss_mb', run.chartProcessRssMb, 'MB');
  },
};
