import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import type { Standing } from '../src/store/record-queries.js';
import type { BenchGroup } from './group.js';
import { watchLoopGaps } from './lib/loop-gaps.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, percentile, roundCount, sleep } from './lib/stats.js';

/**
 * What a chart image of /staff stats and /leaderboard costs (src/features/record/charts.ts: ECharts' SVG, then
 * resvg to PNG on libuv's thread pool), in this process:
 *
 * - record.chart_ms: wall time of one chart, SVG to PNG (a member's hours over 31 days, the widest chart), p99
 *   over RENDERS renders after WARM_UP; limit 200 ms.
 * - record.chart_block_ms: p99 of the synchronous part of those renders (building the SVG: the event loop can
 *   do nothing else meanwhile), and the longest gap between two turns of the event loop over all of them.
 * - record.chart_rss_mb: what the renderer adds to the process's RSS (after a full GC), measured before its
 *   modules load, after the first chart and after the last. The leaderboard's chart is timed too, for scale.
 */
const WARM_UP = 5;
const RENDERS = roundCount(50);
const LIMIT_MS = 200;
const DAY = 86_400_000;

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** RSS in MB after full collections, once it stopped falling (freed pages go back a little later). */
async function settledRssMb(): Promise<number> {
  let rss = Infinity;
  for (let i = 0; i < 5; i += 1) {
    gc();
    await sleep(50);
    const now = process.memoryUsage().rss / 2 ** 20;
    if (now >= rss - 0.5) return Math.min(rss, now);
    rss = now;
  }
  return rss;
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
      `record-chart: one chart image, SVG (ECharts) to PNG (resvg), ${RENDERS} renders after ${WARM_UP} to warm up; ` +
        `RSS of this process after GC`,
    );
    const before = await settledRssMb();
    const loaded = performance.now();
    const charts = await import('../src/features/record/charts.js');
    const hoursPerPeriod = (await import('../src/features/record/hours-per-day.js')).hoursPerPeriod;
    log(`  loading the renderer's modules: ${formatNumber(performance.now() - loaded)} ms`);
    const afterLoad = await settledRssMb();

    const days = Array.from({ length: 31 }, (_, i) => ({
      day: Date.UTC(2026, 9, 1) + i * DAY,
      seconds: (i % 9) * 3600,
    }));
    const standings: Standing[] = Array.from({ length: 10 }, (_, i) => ({
      memberId: String(400_000_000_000_000_000n + BigInt(i)),
      name: `Staff member ${i + 1}`,
      value: (10 - i) * 9000,
    }));

    const first = performance.now();
    const firstPng = await charts.hoursPerDayChart(days);
    log(`  first chart (cold): ${formatNumber(performance.now() - first)} ms, ${firstPng.length} bytes`);
    const afterFirst = await settledRssMb();

    for (let i = 0; i < WARM_UP; i += 1) await charts.hoursPerDayChart(days);
    const wall: number[] = [];
    const sync: number[] = [];
    const boards: number[] = [];
    const gaps = watchLoopGaps();
    for (let i = 0; i < RENDERS; i += 1) {
      const started = performance.now();
      const svg = charts.chartSvgOfHours(hoursPerPeriod(days));
      sync.push(performance.now() - started);
      await charts.svgToPng(svg);
      wall.push(performance.now() - started);
      const board = performance.now();
      await charts.leaderboardChart(standings, 'shifts');
      boards.push(performance.now() - board);
    }
    const longestGap = gaps.stop();
    const afterAll = await settledRssMb();

    const p99 = percentile(wall, 99);
    const blockP99 = percentile(sync, 99);
    log(`  hours chart, SVG to PNG: median ${formatNumber(median(wall))} ms, p99 ${formatNumber(p99)} ms`);
    log(`    slowest five: ${formatList([...wall].sort((a, b) => b - a).slice(0, 5))} ms`);
    log(
      `  of which on the event loop (the SVG): median ${formatNumber(median(sync))} ms, p99 ${formatNumber(blockP99)} ms; ` +
        `longest event-loop gap over all renders: ${formatNumber(longestGap)} ms`,
    );
    log(
      `  leaderboard chart: median ${formatNumber(median(boards))} ms, p99 ${formatNumber(percentile(boards, 99))} ms`,
    );
    log(
      `  RSS: ${formatNumber(before)} MB before, ${formatNumber(afterLoad)} MB with the modules loaded, ` +
        `${formatNumber(afterFirst)} MB after the first chart, ${formatNumber(afterAll)} MB after ${RENDERS * 2 + WARM_UP + 1}`,
    );
    log(`  limit: one chart ${LIMIT_MS} ms (p99)`);
    figures.add('record.chart_ms', p99, 'ms');
    figures.add('record.chart_vs_limit', p99 / LIMIT_MS, 'x');
    figures.add('record.chart_block_ms', blockP99, 'ms');
    figures.add('record.chart_rss_first_mb', afterFirst - before, 'MB');
    figures.add('record.chart_rss_mb', afterAll - before, 'MB');
  },
};
