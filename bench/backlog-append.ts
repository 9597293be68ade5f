import type { BackoffPolicy } from '../src/base/backoff.js';
import type { BacklogSizes } from './backlog-sizes.js';
import {
  BACKLOG_EVENTS,
  MESSAGE_CREATE,
  messageCreatesSince,
  SIGNED_EVENTS,
  withBacklogScene,
  type BacklogScene,
} from './lib/backlog-scene.js';
import { forkFeedBot, type FeedBotChild, type FeedBotRuntime } from './lib/feed-bot-process.js';
import type { FeedBotMemory } from './lib/feed-bot-protocol.js';
import { FEED_BENCH_SECRET, makeFeedBurst, postConcurrently, type FeedDelivery } from './lib/feed-deliveries.js';
import { sleep } from './lib/stats.js';

/**
 * One round of backlog.append_cost_ratio and backlog.rss_mb_per_100k, in one bot process against a fake
 * Discord that answers 503 to every message create (Discord down, logins and the gateway still up):
 *
 * 1. the bot starts, takes WARM_UP signed deliveries while Discord is healthy and posts them (its code paths
 *    have run, its outbox is empty again); Discord goes down; memory after GC: the "0 waiting" point;
 * 2. `sizes.low` signed deliveries make the low point (with fewer, the first window after Discord went down
 *    cost ~5% more than the next: the intake's path was still warming up); their lanes try, fail and wait out
 *    their backoff; then WINDOW_WARM_UP signed deliveries, unmeasured, then SIGNED more over HTTP, 10 in
 *    flight, with the bot's main-thread CPU read before and after: the cost per delivery at the low point;
 * 3. the outbox is filled to `sizes.size` through the store (lib/backlog-fill.ts), CONCURRENCY accepts in flight
 *    as in the windows, spread over 20 channels whose lanes fail in turn; memory after GC (the growth figure);
 *    the same window again.
 *
 * Each window follows a full garbage collection (the memory snapshots), so neither pays for the other's
 * garbage. The low window always comes first: a backlog only grows within a round.
 *
 * The lanes back off 150-300 s here (OUTAGE_BACKOFF), so no retry falls into a window: the window measures what
 * accepting costs, and the message creates counted in each window show that no lane spins meanwhile.
 */
export const SIGNED = 2_000;
const WINDOW_WARM_UP = 200;
const WARM_UP = 2_000;
const CONCURRENCY = 10;
const OUTAGE_BACKOFF: BackoffPolicy = { baseMs: 300_000, capMs: 300_000 };

/** One measured window of signed deliveries. */
export interface AppendWindow {
  /** Open entries when the measured part began (after the window's warm-up); SIGNED more when it ended. */
  waiting: number;
  /** The bot's main thread, and all its threads, during the window, ms. */
  mainThreadMs: number;
  processMs: number;
  wallMs: number;
  /** Message creates the fake saw during the window (lanes retrying): 0 when no lane spins. */
  creates: number;
}

export interface AppendRound {
  /** Memory after GC at 0 waiting, at the low point, and at the full size. */
  zero: FeedBotMemory;
  filledLow: FeedBotMemory;
  full: FeedBotMemory;
  low: AppendWindow;
  high: AppendWindow;
  /** Filling from the low point to the full size, through the store, ms. */
  fillMs: number;
}

/** µs of main-thread CPU per accepted delivery in a window. */
export function costPerDeliveryUs(window: AppendWindow): number {
  return (window.mainThreadMs * 1000) / SIGNED;
}

async function appendWindow(
  bot: FeedBotChild,
  scene: BacklogScene,
  webhookUrl: string,
  waiting: number,
  deliveries: readonly FeedDelivery[],
): Promise<AppendWindow> {
  await postConcurrently(webhookUrl, FEED_BENCH_SECRET, deliveries.slice(0, WINDOW_WARM_UP), CONCURRENCY);
  const since = Date.now();
  const before = await bot.ask({ type: 'cpu' }, 'cpu', 10_000);
  const started = performance.now();
  await postConcurrently(webhookUrl, FEED_BENCH_SECRET, deliveries.slice(WINDOW_WARM_UP), CONCURRENCY);
  const wallMs = performance.now() - started;
  const after = await bot.ask({ type: 'cpu' }, 'cpu', 10_000);
  const creates = messageCreatesSince(scene.fake, since);
  if (before.mainThreadMs === undefined || after.mainThreadMs === undefined) {
    throw new Error('main-thread CPU is read from /proc (Linux only)');
  }
  return {
    waiting: waiting + WINDOW_WARM_UP,
    mainThreadMs: after.mainThreadMs - before.mainThreadMs,
    processMs: after.processMs - before.processMs,
    wallMs,
    creates: creates.ok + creates.failed,
  };
}

/** Polls until `lanes` channels have failed once and wait out their retry (Discord is down). */
async function waitForLanesRetrying(bot: FeedBotChild, lanes: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { retrying } = await bot.ask({ type: 'lanes' }, 'lanes', 10_000);
    if (retrying >= lanes) return;
    if (Date.now() > deadline) throw new Error(`only ${retrying} of ${lanes} lanes failed and backed off within 60 s`);
    await sleep(100);
  }
}

export async function measureAppendRound(
  tag: string,
  sizes: BacklogSizes,
  runtime: FeedBotRuntime,
): Promise<AppendRound> {
  return withBacklogScene(async (scene) => {
    const bot = forkFeedBot(runtime);
    try {
      const { webhookUrl } = await bot.ask(
        {
          type: 'start',
          options: {
            apiUrl: scene.fake.apiUrl,
            token: scene.fake.botToken,
            storeDir: scene.dir,
            guildId: scene.guildId,
            routes: scene.routes,
            secret: FEED_BENCH_SECRET,
            backoff: OUTAGE_BACKOFF,
          },
        },
        'ready',
        30_000,
      );
      const window = WINDOW_WARM_UP + SIGNED;
      const signed = makeFeedBurst(tag, WARM_UP + sizes.low + 2 * window, SIGNED_EVENTS);
      let sent = 0;
      const next = (count: number) => {
        const part = signed.slice(sent, sent + count);
        sent += count;
        return part;
      };
      await postConcurrently(webhookUrl, FEED_BENCH_SECRET, next(WARM_UP), CONCURRENCY);
      await bot.ask({ type: 'measure' }, 'memory', 150_000);

      scene.fake.failRequests({ status: 503, match: MESSAGE_CREATE });
      const zero = await bot.ask({ type: 'snapshot' }, 'memory', 60_000);
      // Signed deliveries make the low point: the first window after them costs what the next ones do.
      await postConcurrently(webhookUrl, FEED_BENCH_SECRET, next(sizes.low), CONCURRENCY);
      await waitForLanesRetrying(bot, SIGNED_EVENTS.length);
      const filledLow = await bot.ask({ type: 'snapshot' }, 'memory', 60_000);
      const low = await appendWindow(bot, scene, webhookUrl, filledLow.outbox, next(window));

      const fill = {
        events: [...BACKLOG_EVENTS],
        idPrefix: `b${tag}`,
        first: 0,
        count: Math.max(0, sizes.size - (filledLow.outbox + window)),
        // As wide as the intake's load: the memory read next is the backlog's, not a wider burst's (backlog-fill.ts).
        inFlight: CONCURRENCY,
      };
      const atFull = await bot.ask({ type: 'fill', fill }, 'filled', 600_000);
      await waitForLanesRetrying(bot, BACKLOG_EVENTS.length);
      const full = await bot.ask({ type: 'snapshot' }, 'memory', 60_000);
      const high = await appendWindow(bot, scene, webhookUrl, full.outbox, next(window));
      return { zero, filledLow, full, low, high, fillMs: atFull.ms };
    } finally {
      await bot.stop();
    }
  });
}
