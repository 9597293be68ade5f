/**
 * The record-chart group's measuring process (bench/record-chart.ts forks it with `--expose-gc` and the node flags
 * of `npm start`): nothing of the bot is loaded before the baseline, so the RSS it reports is the renderer's own.
 * Sends one {@link RecordChartRun} to its parent and exits.
 */
import type { Standing } from '../../src/store/record-queries.js';
import { watchLoopGaps } from './loop-gaps.js';
import { sleep } from './stats.js';

/** What one run measured: times in ms, RSS in MB (after full collections). */
export interface RecordChartRun {
  loadMs: number;
  firstMs: number;
  firstBytes: number;
  wall: number[];
  sync: number[];
  boards: number[];
  longestGapMs: number;
  rss: { before: number; loaded: number; first: number; last: number };
  renders: number;
}

const DAY = 86_400_000;
const gc = (globalThis as { gc?: () => void }).gc;

/**
 * RSS in MB after full collections, at least three (the native memory of resvg's images is freed by finalizers
 * that run after a collection), then until it stops falling (freed pages go back a little later).
 */
async function settledRssMb(): Promise<number> {
  if (!gc) throw new Error('run with --expose-gc');
  let rss = Infinity;
  for (let i = 0; i < 10; i += 1) {
    gc();
    await sleep(50);
    const now = process.memoryUsage().rss / 2 ** 20;
    if (i >= 2 && now >= rss - 0.25) return Math.min(rss, now);
    rss = Math.min(rss, now);
  }
  return rss;
}

async function measure(warmUp: number, renders: number): Promise<RecordChartRun> {
  const before = await settledRssMb();
  const loading = performance.now();
  const charts = await import('../../src/features/record/charts.js');
  const { hoursPerPeriod } = await import('../../src/features/record/hours-per-day.js');
  const loadMs = performance.now() - loading;
  const loaded = await settledRssMb();

  const days = Array.from({ length: 31 }, (_, i) => ({ day: Date.UTC(2026, 9, 1) + i * DAY, seconds: (i % 9) * 3600 }));
  const standings: Standing[] = Array.from({ length: 10 }, (_, i) => ({
    memberId: String(400_000_000_000_000_000n + BigInt(i)),
    name: `Staff member ${i + 1}`,
    value: (10 - i) * 9000,
  }));

  const starting = performance.now();
  const firstPng = await charts.hoursPerDayChart(days);
  const firstMs = performance.now() - starting;
  const first = await settledRssMb();

  for (let i = 0; i < warmUp; i += 1) await charts.hoursPerDayChart(days);
  const wall: number[] = [];
  const sync: number[] = [];
  const boards: number[] = [];
  const gaps = watchLoopGaps();
  for (let i = 0; i < renders; i += 1) {
    const started = performance.now();
    const svg = charts.chartSvgOfHours(hoursPerPeriod(days));
    sync.push(performance.now() - started);
    await charts.svgToPng(svg);
    wall.push(performance.now() - started);
    const board = performance.now();
    await charts.leaderboardChart(standings, 'shifts');
    boards.push(performance.now() - board);
  }
  const longestGapMs = gaps.stop();
  const last = await settledRssMb();
  return {
    loadMs,
    firstMs,
    firstBytes: firstPng.length,
    wall,
    sync,
    boards,
    longestGapMs,
    rss: { before, loaded, first, last },
    renders: 1 + warmUp + 2 * renders,
  };
}

const [warmUp, renders] = process.argv.slice(2).map(Number);
const run = await measure(warmUp ?? 5, renders ?? 50);
process.send?.(run, () => process.exit(0));
