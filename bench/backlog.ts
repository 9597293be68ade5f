import { costPerDeliveryUs, measureAppendRound, SIGNED, type AppendRound } from './backlog-append.js';
import { measureRestartAndDrain, type DrainRun } from './backlog-restart.js';
import { backlogSizes, DEFAULT_BACKLOG_SIZE, type BacklogSizes } from './backlog-sizes.js';
import type { BenchGroup } from './group.js';
import { makeRunTag } from './lib/delivery.js';
import type { FeedBotMemory } from './lib/feed-bot-protocol.js';
import { withFeedBotRuntime } from './lib/feed-compile.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * What a large backlog costs the bot (Discord down for hours, or a restart in the middle of one). The bot runs
 * in a child process of its own (compiled, as feed-memory runs it); the fake Discord and the load run here.
 *
 * - backlog.append_cost_ratio: the bot's main-thread CPU per signed delivery accepted with the full backlog
 *   waiting, over the same with 1,000 waiting (backlog-append.ts). Target <= 1.3.
 * - backlog.rss_mb_per_100k: the bot's RSS after GC with the full backlog waiting, less the same with none
 *   waiting, in MB per 100,000 waiting. Target <= 20.
 * - backlog.restart_first_post_ms: a fresh bot process on a file with the backlog waiting and ten times as many
 *   posted ids kept: fork -> first message at Discord (backlog-restart.ts). Target <= 2,000 ms.
 * - backlog.drain_vs_ideal: from there, Discord healthy, drain time over the ideal at Discord's global
 *   50 requests/s with 10 embeds per message. Target <= 1.1. One drain per run: it takes minutes.
 *
 * Every part runs with a 24 h replay window (REPLAY_WINDOW_HOURS=24, the default): posted deliveries keep their body
 * that long, so the restart's store holds a day's 100,000 posted bodies besides its ids, and the drain keeps each
 * body it posts.
 *
 * BACKLOG_SIZE=<n> scales everything (default 100,000; BACKLOG_SEEN=<n> sets the posted ids, default 10x;
 * BACKLOG_REPLAY_BODIES=<n> how many of them keep their body, default 100,000).
 */
const APPEND_ROUNDS = roundCount(3);
const RESTART_ROUNDS = roundCount(3);
const APPEND_TARGET = 1.3;
const RSS_TARGET_MB = 20;
const RESTART_TARGET_MS = 2_000;
const DRAIN_TARGET = 1.1;
const MB = 1024 * 1024;
const PER = 100_000;

const mb = (bytes: number) => bytes / MB;

function describeMemory(memory: FeedBotMemory): string {
  const anon = memory.rssAnon === undefined ? '' : `, anon ${formatNumber(mb(memory.rssAnon))}`;
  return (
    `rss ${formatNumber(mb(memory.rss))} MB${anon} (heap used ${formatNumber(mb(memory.heapUsed))} of ` +
    `${formatNumber(mb(memory.heapTotal))}, external ${formatNumber(mb(memory.external))}) with ${memory.outbox} open`
  );
}

function logAppendRound(round: number, run: AppendRound): void {
  for (const window of [run.low, run.high]) {
    log(
      `  round ${round} at ${window.waiting}-${window.waiting + SIGNED} waiting: ${formatNumber(costPerDeliveryUs(window))} µs main-thread CPU per delivery ` +
        `(${window.mainThreadMs} ms for ${SIGNED}; all threads ${formatNumber(window.processMs)} ms; wall ${formatNumber(window.wallMs)} ms; ` +
        `message creates meanwhile: ${window.creates})`,
    );
  }
  log(
    `  round ${round} memory: at 0 waiting ${describeMemory(run.zero)}; at the low point ${describeMemory(run.filledLow)}; filled in ${formatNumber(run.fillMs / 1000)} s, ` +
      `then ${describeMemory(run.full)}; warnings logged ${run.full.warnings}`,
  );
}

function logDrain(drain: DrainRun): void {
  const seconds = drain.perSecond;
  const busy = seconds.length > 2 ? seconds.slice(1, -1) : seconds;
  const cpu =
    drain.botCpuMs === undefined
      ? ''
      : `; bot main thread ${formatNumber(drain.botCpuMs / 1000)} s of CPU (${formatNumber((100 * drain.botCpuMs) / drain.drainMs)}% of the drain, ` +
        `${formatNumber(drain.botCpuMs / drain.messages)} ms per message)`;
  log(
    `  drain: ${drain.embeds} embeds in ${formatNumber(drain.drainMs / 1000)} s, ideal ${formatNumber(drain.idealMs / 1000)} s ` +
      `= ${formatNumber(drain.drainMs / drain.idealMs)} x; ${drain.messages} messages (${drain.partial} with fewer than 10 embeds), ` +
      `${drain.rejected} x 429; creates per second: median ${busy.length > 0 ? formatNumber(median(busy)) : '-'}, ` +
      `min ${busy.length > 0 ? Math.min(...busy) : '-'}, max ${busy.length > 0 ? Math.max(...busy) : '-'}${cpu}`,
  );
  log(`  creates per second of the drain: ${seconds.join(' ')}`);
  log(`  after the drain: rss ${formatNumber(mb(drain.rssAfter))} MB, ${drain.warnings} warnings logged`);
}

function describeSizes(sizes: BacklogSizes): string {
  const scaled = sizes.scaled ? ` (BACKLOG_SIZE; the issue's size is ${DEFAULT_BACKLOG_SIZE})` : '';
  return (
    `${sizes.size} waiting${scaled} over 20 channels, ${sizes.seen} posted ids kept (the latest ${sizes.withBody} with ` +
    `their body: a 24 h replay window at 100,000 deliveries a day), low point ${sizes.low} waiting`
  );
}

export const backlogGroup: BenchGroup = {
  name: 'backlog',
  figures: [
    'backlog.append_cost_ratio',
    'backlog.rss_mb_per_100k',
    'backlog.restart_first_post_ms',
    'backlog.drain_vs_ideal',
  ],
  async run(figures) {
    const sizes = backlogSizes();
    log(
      `backlog: ${describeSizes(sizes)}; ${APPEND_ROUNDS} append rounds (Discord answers 503 to message creates, ` +
        `${SIGNED} signed deliveries per window, 10 in flight), ${RESTART_ROUNDS} restarts, one drain`,
    );
    const tag = makeRunTag();
    await withFeedBotRuntime(async (runtime) => {
      const rounds: AppendRound[] = [];
      for (let round = 1; round <= APPEND_ROUNDS; round += 1) {
        const run = await measureAppendRound(`${tag}a${round}`, sizes, runtime);
        rounds.push(run);
        logAppendRound(round, run);
      }
      const ratios = rounds.map((run) => costPerDeliveryUs(run.high) / costPerDeliveryUs(run.low));
      // Not scaled to 100,000 when BACKLOG_SIZE is smaller: most of the growth is fixed (SQLite's page cache, the
      // heap's high-water mark), so a linear scale-up would mostly multiply those. The log line gives both.
      const growth = rounds.map((run) => mb(run.full.rss - run.zero.rss));
      const scaledUp =
        sizes.size === PER
          ? ''
          : ` (${formatNumber((median(growth) * PER) / sizes.size)} if it all grew per entry, scaled to ${PER})`;
      log(
        `  backlog.append_cost_ratio (CPU per delivery from ${rounds[0]?.high.waiting ?? '?'} / from ${rounds[0]?.low.waiting ?? '?'} waiting on): ` +
          `${formatList(ratios)} -> median ${formatNumber(median(ratios))} (target <= ${APPEND_TARGET})`,
      );
      log(
        `  backlog.rss_mb_per_100k (RSS growth 0 -> ${sizes.size} waiting): ${formatList(growth)} MB -> median ` +
          `${formatNumber(median(growth))}${scaledUp} (target <= ${RSS_TARGET_MB} at ${PER})`,
      );
      figures.add('backlog.append_cost_ratio', median(ratios), 'x');
      figures.add('backlog.rss_mb_per_100k', median(growth), 'MB');

      const restart = await measureRestartAndDrain(`${tag}r`, sizes, RESTART_ROUNDS, runtime);
      const firstPost = restart.restarts.map((round) => round.firstPostMs);
      log(
        `  backlog.restart_first_post_ms (${sizes.size} waiting, ${sizes.seen} posted ids): ${formatList(firstPost)} ` +
          `-> median ${formatNumber(median(firstPost))} (target <= ${RESTART_TARGET_MS})`,
      );
      logDrain(restart.drain);
      const drainRatio = restart.drain.drainMs / restart.drain.idealMs;
      log(`  backlog.drain_vs_ideal: ${formatNumber(drainRatio)} (target <= ${DRAIN_TARGET})`);
      figures.add('backlog.restart_first_post_ms', median(firstPost), 'ms');
      figures.add('backlog.drain_vs_ideal', drainRatio, 'x');
    });
  },
};
