import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startFakeDiscord, type FakeDiscord, type RateLimit } from '../fakes/discord/index.js';
import { EVENT_NAMES } from '../src/upstream/schemas.js';
import type { BenchGroup } from './group.js';
import { makeRunTag } from './lib/delivery.js';
import { startFeedBotProcess, type FeedBotRuntime } from './lib/feed-bot-process.js';
import { withFeedBotRuntime } from './lib/feed-compile.js';
import {
  assertPostedInOrder,
  FEED_BENCH_SECRET,
  makeFeedBurst,
  makeFeedDelivery,
  postedIds,
  postInOrder,
  type FeedDelivery,
} from './lib/feed-deliveries.js';
import { createNaiveBridge } from './lib/feed-naive.js';
import { channelTimeline, describeTimeline, whenEmbeds, type ChannelTimeline } from './lib/feed-timeline.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * feed.drain_vs_ideal: a burst to one channel through the real intake and feed (SQLite outbox, discord.js)
 * against the fake Discord's per-channel limit, drain time over the ideal (every message full, sent at the
 * channel's rate). feed.vs_naive: a bridge sending one message per event through discord.js, on the same
 * burst and the same limit, drain time over ours.
 *
 * The bot runs alone in a child process (lib/feed-bot-child.ts, as feed-memory runs it); the fake Discord,
 * the sender of the burst (back to back, in order, as the service sends) and the naive bridge run here, so
 * neither the fake's schema validation nor the load shares the bot's event loop.
 *
 * Scaled down from Discord's 5 per 5 s so a round takes seconds; the ratio does not depend on the scale as long
 * as a window is long next to a send. discord.js's REST `offset` (50 ms, default, kept: it is what the bot runs
 * with) is added to every wait for a reset, by discord.js 2.6 twice (once to the stored reset, once to the
 * wait), so every window costs windowMs + ~100 ms: ~10% of a 1 s window, ~40% of a 250 ms one. The median window
 * period printed with each round shows it.
 */
const ROUNDS = roundCount(3);
const MAX_EMBEDS = 10;

const DRAIN_EVENTS = 500;
const DRAIN_LIMIT: RateLimit = { limit: 5, windowMs: 1_000 };
const DRAIN_TARGET = 1.15;

const VS_EVENTS = 100;
const VS_LIMIT: RateLimit = { limit: 5, windowMs: 250 };
const VS_TARGET = 8;

/** Routed to a channel of its own, so the burst's channel starts with a fresh rate-limit window. */
const WARM_UP_EVENT = 'modcall';

interface Drain {
  /** First delivery sent (or handed to the naive bridge) -> last embed received by the fake, ms. */
  drainMs: number;
  /** Until the intake had answered the last delivery (ours only), ms. */
  intakeMs: number | undefined;
  timeline: ChannelTimeline;
}

type Bridge = 'ours' | 'naive';

/** The ideal drain: every message carries 10 embeds and the channel takes `limit` per window, back to back. */
function idealMs(events: number, limit: RateLimit): number {
  return (Math.ceil(events / MAX_EMBEDS) * limit.windowMs) / limit.limit;
}

/** A fresh fake Discord with one guild, the burst's channel and a warm-up channel, and a temp dir for SQLite. */
interface Scene {
  fake: FakeDiscord;
  guildId: string;
  channelId: string;
  warmUpChannelId: string;
  dir: string;
}

async function withScene<T>(limit: RateLimit, work: (scene: Scene) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-feed-bench-'));
  const fake = await startFakeDiscord({ messageRateLimit: limit });
  try {
    const guild = fake.addGuild({ name: 'Feed Bench', channels: [{ name: 'feed' }, { name: 'warm-up' }] });
    const channelId = guild.channels.feed;
    const warmUpChannelId = guild.channels['warm-up'];
    if (!channelId || !warmUpChannelId) throw new Error('the fake made no feed channels');
    return await work({ fake, guildId: guild.id, channelId, warmUpChannelId, dir });
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Three times what the bridge needs with the REST offset, plus slack: only a stuck feed takes this long. */
function drainTimeoutMs(bridge: Bridge, events: number, limit: RateLimit): number {
  const messages = bridge === 'naive' ? events : Math.ceil(events / MAX_EMBEDS);
  return (3 * messages * (limit.windowMs + 200)) / limit.limit + 30_000;
}

/**
 * One round: a fresh fake and bridge, one warm-up event to another channel (its own rate-limit bucket), then
 * the burst, timed. The warm-up keeps first-call costs out of the drain: the fake compiles Discord's schema
 * (ajv, ~0.3-0.5 s, blocking its answers) at its first message create, and the bot's code paths run for the first
 * time; a bot that meets a burst has been running for a while.
 */
async function drain(
  bridge: Bridge,
  deliveries: readonly FeedDelivery[],
  limit: RateLimit,
  runtime: FeedBotRuntime,
): Promise<Drain> {
  return withScene(limit, async ({ fake, guildId, channelId, warmUpChannelId, dir }) => {
    const ids = deliveries.map((delivery) => delivery.id);
    const warmUp = makeFeedDelivery(WARM_UP_EVENT, `${deliveries[0]?.id ?? 'x'}-warm-up`, 0);
    let drain: Drain;
    if (bridge === 'naive') {
      const naive = createNaiveBridge({ apiUrl: fake.apiUrl, token: fake.botToken });
      try {
        await naive.post(warmUpChannelId, [warmUp]);
        const arrived = whenEmbeds(
          fake,
          [channelId],
          deliveries.length,
          drainTimeoutMs(bridge, deliveries.length, limit),
        );
        const started = performance.now();
        await naive.post(channelId, deliveries);
        drain = {
          drainMs: (await arrived) - started,
          intakeMs: undefined,
          timeline: channelTimeline(fake, channelId, limit),
        };
      } finally {
        naive.close();
      }
    } else {
      const routes = {
        ...Object.fromEntries(EVENT_NAMES.map((event) => [event, channelId])),
        [WARM_UP_EVENT]: warmUpChannelId,
      };
      const bot = await startFeedBotProcess(
        { apiUrl: fake.apiUrl, token: fake.botToken, storeDir: dir, guildId, routes, secret: FEED_BENCH_SECRET },
        runtime,
      );
      try {
        await postInOrder(bot.webhookUrl, FEED_BENCH_SECRET, [warmUp]);
        await whenEmbeds(fake, [warmUpChannelId], 1, 10_000);
        await bot.measure();
        const arrived = whenEmbeds(
          fake,
          [channelId],
          deliveries.length,
          drainTimeoutMs(bridge, deliveries.length, limit),
        );
        const started = performance.now();
        await postInOrder(bot.webhookUrl, FEED_BENCH_SECRET, deliveries);
        const intakeMs = performance.now() - started;
        const drainMs = (await arrived) - started;
        // Waits for the outbox to empty: nothing can be sent after that, so a duplicate would have arrived by now.
        const after = await bot.measure();
        if (after.warnings > 0) log(`  ! the bot logged ${after.warnings} warnings, e.g. ${after.firstWarning ?? ''}`);
        drain = { drainMs, intakeMs, timeline: channelTimeline(fake, channelId, limit) };
      } finally {
        await bot.stop();
      }
    }
    assertPostedInOrder(`${bridge} bridge`, ids, postedIds(fake.messages(channelId)));
    if (fake.violations.length > 0)
      throw new Error(`${bridge} bridge: ${fake.violations.length} bodies Discord would refuse`);
    return drain;
  });
}

function describeDrain(round: number, bridge: Bridge, run: Drain, ideal: number): string {
  const intake = run.intakeMs === undefined ? '' : ` (intake answered all in ${run.intakeMs.toFixed(0)} ms)`;
  return (
    `  round ${round} ${bridge.padEnd(5)} drain ${run.drainMs.toFixed(0)} ms = ${formatNumber(run.drainMs / ideal)} x ideal${intake}; ` +
    describeTimeline(run.timeline)
  );
}

async function measureDrainVsIdeal(tag: string, runtime: FeedBotRuntime): Promise<number> {
  const ideal = idealMs(DRAIN_EVENTS, DRAIN_LIMIT);
  log(
    `  feed.drain_vs_ideal: ${DRAIN_EVENTS} case.created to one channel, limit ${DRAIN_LIMIT.limit} per ${DRAIN_LIMIT.windowMs} ms, ` +
      `ideal ${Math.ceil(DRAIN_EVENTS / MAX_EMBEDS)} messages x ${DRAIN_LIMIT.windowMs / DRAIN_LIMIT.limit} ms = ${ideal} ms; ${ROUNDS} rounds`,
  );
  const ratios: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const run = await drain(
      'ours',
      makeFeedBurst(`${tag}d${round}`, DRAIN_EVENTS, ['case.created']),
      DRAIN_LIMIT,
      runtime,
    );
    log(describeDrain(round, 'ours', run, ideal));
    ratios.push(run.drainMs / ideal);
  }
  log(
    `  drain / ideal per round: ${formatList(ratios)} -> median ${formatNumber(median(ratios))} (target <= ${DRAIN_TARGET})`,
  );
  return median(ratios);
}

async function measureVsNaive(tag: string, runtime: FeedBotRuntime): Promise<number> {
  const ideal = idealMs(VS_EVENTS, VS_LIMIT);
  log(
    `  feed.vs_naive: ${VS_EVENTS} case.created to one channel, limit ${VS_LIMIT.limit} per ${VS_LIMIT.windowMs} ms (ideal ${ideal} ms), same for both; ${ROUNDS} rounds, order alternating`,
  );
  const ours: number[] = [];
  const naive: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const order: Bridge[] = round % 2 === 1 ? ['naive', 'ours'] : ['ours', 'naive'];
    for (const bridge of order) {
      const run = await drain(
        bridge,
        makeFeedBurst(`${tag}${bridge[0] ?? ''}${round}`, VS_EVENTS, ['case.created']),
        VS_LIMIT,
        runtime,
      );
      log(describeDrain(round, bridge, run, ideal));
      (bridge === 'ours' ? ours : naive).push(run.drainMs);
    }
  }
  const ratios = naive.map((ms, i) => ms / (ours[i] ?? Number.NaN));
  log(
    `  drain ms: naive ${formatList(naive)} (median ${formatNumber(median(naive))}), ours ${formatList(ours)} (median ${formatNumber(median(ours))})`,
  );
  log(
    `  naive / ours per round: ${formatList(ratios)} -> median ${formatNumber(median(ratios))} (target >= ${VS_TARGET})`,
  );
  return median(ratios);
}

export const feedDrainGroup: BenchGroup = {
  name: 'feed-drain',
  figures: ['feed.drain_vs_ideal', 'feed.vs_naive'],
  async run(figures) {
    log(
      "feed-drain: bursts to one channel through the real intake and feed against the fake Discord's rate limit (discord.js REST defaults, offset 50 ms)",
    );
    const tag = makeRunTag();
    await withFeedBotRuntime(async (runtime) => {
      figures.add('feed.drain_vs_ideal', await measureDrainVsIdeal(tag, runtime), 'x');
      figures.add('feed.vs_naive', await measureVsNaive(tag, runtime), 'x');
    });
  },
};
