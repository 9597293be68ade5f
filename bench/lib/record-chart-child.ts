/**
 * The record-chart group's measuring process (bench/record-chart.ts forks it with `--expose-gc` and the node flags
 * of `npm start`): it draws charts the way the bot does, through ChartRenderer, which draws in a chart process of
 * its own. Nothing of the bot is loaded before the baseline, so the RSS it reports is what charts cost the bot's
 * own process; the chart process's RSS is read from /proc. Sends one {@link RecordChartRun} and exits.
 */
import { readFileSync } from 'node:fs';

import { createLogger } from '../../src/base/logger.js';
import { RUNTIME_TIMERS } from '../../src/base/timers.js';
import type { ChartRequest } from '../../src/features/record/charts.js';
import { watchLoopGaps } from './loop-gaps.js';
import { sleep } from './stats.js';

/** What one run measured: times in ms, RSS in MB (the bot's after full collections). */
export interface RecordChartRun {
  loadMs: number;
  firstMs: number;
  firstBytes: number;
  wall: number[];
  boards: number[];
  longestGapMs: number;
  rss: { before: number; first: number; last: number };
  chartProcessRssMb: number;
  idleExitMs: number;
  renders: number;
}

const DAY = 86_400_000;
const IDLE_MS = 1_000;
const gc = (globalThis as { gc?: () => void }).gc;

/** RSS in MB after full collections, until it stops falling (freed pages go back a little later). */
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

/** A process's resident set in MB, as the kernel counts it. */
function rssOfMb(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return Number(line?.[1] ?? 0) / 1024;
}

async function measure(warmUp: number, renders: number): Promise<RecordChartRun> {
  const before = await settledRssMb();
  const loading = performance.now();
  const { ChartRenderer } = await import('../../src/features/record/chart-renderer.js');
  const { hoursPerPeriod } = await import('../../src/features/record/hours-per-day.js');
  const loadMs = performance.now() - loading;
  const charts = new ChartRenderer({ timers: RUNTIME_TIMERS, logger: createLogger('warn'), idleMs: IDLE_MS });
  charts.start();

  const days = Array.from({ length: 31 }, (_, i) => ({ day: Date.UTC(2026, 9, 1) + i * DAY, seconds: (i % 9) * 3600 }));
  const hours: ChartRequest = { kind: 'hours', hours: hoursPerPeriod(days) };
  const board: ChartRequest = {
    kind: 'leaderboard',
    board: 'shifts',
    standings: Array.from({ length: 10 }, (_, i) => ({
      memberId: String(400_000_000_000_000_000n + BigInt(i)),
      name: `Staff member ${i + 1}`,
      value: (10 - i) * 9000,
    })),
  };
  const draw = async (chart: ChartRequest) => {
    const png = await charts.draw(chart);
    if (!png) throw new Error('a chart was not drawn');
    return png;
  };

  const starting = performance.now();
  const firstPng = await draw(hours);
  const firstMs = performance.now() - starting;
  const first = await settledRssMb();

  for (let i = 0; i < warmUp; i += 1) await draw(hours);
  const wall: number[] = [];
  const boards: number[] = [];
  const gaps = watchLoopGaps();
  for (let i = 0; i < renders; i += 1) {
    const started = performance.now();
    await draw(hours);
    wall.push(performance.now() - started);
    const drawing = performance.now();
    await draw(board);
    boards.push(performance.now() - drawing);
  }
  const longestGapMs = gaps.stop();
  const pid = charts.pid ?? 0;
  const chartProcessRssMb = rssOfMb(pid);
  const last = await settledRssMb();

  const idle = performance.now();
  while (charts.pid !== undefined) await sleep(10);
  const idleExitMs = performance.now() - idle;
  await charts.stop();
  return {
    loadMs,
    firstMs,
    firstBytes: firstPng.length,
    wall,
    boards,
    longestGapMs,
    rss: { before, first, last },
    chartProcessRssMb,
    idleExitMs,
    renders: 1 + warmUp + 2 * renders,
  };
}

const [warmUp, renders] = process.argv.slice(2).map(Number);
const run = await measure(warmUp ?? 5, renders ?? 50);
process.send?.(run, () => process.exit(0));
