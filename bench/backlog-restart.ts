import { randomBytes } from 'node:crypto';

import type { BacklogSizes } from './backlog-sizes.js';
import { backlogDeliveryId } from './lib/backlog-fill.js';
import {
  BACKLOG_EVENTS,
  MESSAGE_CREATE,
  warmUpFake,
  withBacklogScene,
  type BacklogScene,
} from './lib/backlog-scene.js';
import { forkFeedBot, type FeedBotChild, type FeedBotRuntime } from './lib/feed-bot-process.js';
import type { FeedBotSeeded } from './lib/feed-bot-protocol.js';
import { storeFileOf } from './lib/feed-bot.js';
import { assertPostedOnce, FEED_BENCH_SECRET, postedIds } from './lib/feed-deliveries.js';
import { embedCounter, whenEmbeds } from './lib/feed-timeline.js';
import { log } from './lib/report.js';
import { formatNumber } from './lib/stats.js';

/**
 * backlog.restart_first_post_ms and backlog.drain_vs_ideal, on one store file built without a bot
 * (lib/backlog-seed.ts): `sizes.seen` posted rows and `sizes.size` waiting entries over 20 channels.
 *
 * Each restart round forks a fresh bot process on the file, with Discord healthy (a generous per-channel limit),
 * and times fork -> the first message the fake records; the process's own marks (modules loaded, startBot
 * resolved, client ready) split that time. Every round but the last stops the bot after its first post (the
 * few messages posted meanwhile stay posted); the last one goes on until the fake holds every entry's embed:
 * the drain, timed from its first post to its last, against the ideal of Discord's global 50 requests/s with
 * 10 embeds per message (discord.js keeps to the global limit by itself). Every entry must be posted exactly
 * once, over all rounds.
 */
const GLOBAL_PER_SECOND = 50;
const MAX_EMBEDS = 10;
/** The store is seeded before the bot starts, by a process of its own whose memory nobody reads: wide slices. */
const SEED_IN_FLIGHT = 500;

export interface RestartRound {
  /** Fork -> first message at the fake, ms; then the same time split by the bot process's marks. */
  firstPostMs: number;
  bootMs: number;
  startBotMs: number;
  readyMs: number;
}

export interface DrainRun {
  /** Embeds this drain posted (the whole backlog, less what the earlier restart rounds posted). */
  embeds: number;
  drainMs: number;
  idealMs: number;
  messages: number;
  /** Messages with fewer than 10 embeds. */
  partial: number;
  /** Message creates answered 429 (discord.js should see every limit coming). */
  rejected: number;
  /** Accepted message creates per whole second of the drain. */
  perSecond: number[];
  /** The bot's main thread during the drain, ms. */
  botCpuMs: number | undefined;
  /** The bot process's RSS after the drain (after GC), bytes, and the warnings it logged. */
  rssAfter: number;
  warnings: number;
}

export interface RestartRun {
  seeded: FeedBotSeeded;
  restarts: RestartRound[];
  drain: DrainRun;
}

/** The ideal drain of `embeds` entries: full messages at Discord's global rate. */
export function drainIdealMs(embeds: number): number {
  return (embeds / MAX_EMBEDS / GLOBAL_PER_SECOND) * 1000;
}

/** A wall-clock time from the bot process (ms since the Unix epoch) on this process's performance.now() scale. */
function local(wallClock: number): number {
  return wallClock - performance.timeOrigin;
}

async function seed(
  scene: BacklogScene,
  sizes: BacklogSizes,
  hookId: string,
  idPrefix: string,
  runtime: FeedBotRuntime,
) {
  const seeder = forkFeedBot(runtime);
  try {
    return await seeder.ask(
      {
        type: 'seed',
        seed: {
          storeFile: storeFileOf(scene.dir),
          hookId,
          guildId: scene.guildId,
          secret: FEED_BENCH_SECRET,
          routes: scene.routes,
          seen: sizes.seen,
          withBody: sizes.withBody,
          waiting: { events: [...BACKLOG_EVENTS], idPrefix, first: 0, count: sizes.size, inFlight: SEED_IN_FLIGHT },
        },
      },
      'seeded',
      1_800_000,
    );
  } finally {
    await seeder.stop();
  }
}

/** Accepted message creates in each whole second from `from` to `to` (ms since the Unix epoch). */
function createsPerSecond(scene: BacklogScene, from: number, to: number): number[] {
  const seconds = Array.from({ length: Math.floor((to - from) / 1000) }, () => 0);
  for (const request of scene.fake.requests) {
    if (request.method !== 'POST' || request.status !== 200 || request.time < from) continue;
    const second = Math.floor((request.time - from) / 1000);
    if (second < seconds.length && MESSAGE_CREATE.test(request.path)) seconds[second] = (seconds[second] ?? 0) + 1;
  }
  return seconds;
}

/** How many messages each channel holds now: what a drain posts comes after. */
function messageCounts(scene: BacklogScene): number[] {
  return scene.channelIds.map((channelId) => scene.fake.messages(channelId).length);
}

async function drain(
  scene: BacklogScene,
  bot: FeedBotChild,
  before: { embeds: number; messages: number[]; forkedAt: number },
  sizes: BacklogSizes,
  firstPostAt: number,
): Promise<DrainRun> {
  const embeds = sizes.size - before.embeds;
  const idealMs = drainIdealMs(embeds);
  const firstPostWallClock = performance.timeOrigin + firstPostAt;
  const cpuBefore = await bot.ask({ type: 'cpu' }, 'cpu', 10_000);
  const doneAt = await whenEmbeds(scene.fake, scene.channelIds, sizes.size, 3 * idealMs + 60_000);
  const cpuAfter = await bot.ask({ type: 'cpu' }, 'cpu', 10_000);
  // The store agrees: nothing left open (a lane still holding an entry would show here).
  const after = await bot.ask({ type: 'measure' }, 'memory', 150_000);
  const messages = scene.channelIds.flatMap((channelId, i) => scene.fake.messages(channelId).slice(before.messages[i]));
  const since = performance.timeOrigin + before.forkedAt;
  const creates = scene.fake.requests.filter(
    (request) => request.time >= since && request.method === 'POST' && MESSAGE_CREATE.test(request.path),
  );
  return {
    embeds,
    drainMs: doneAt - firstPostAt,
    idealMs,
    messages: messages.length,
    partial: messages.filter((message) => message.embeds.length < MAX_EMBEDS).length,
    rejected: creates.filter((request) => request.status === 429).length,
    perSecond: createsPerSecond(scene, firstPostWallClock, performance.timeOrigin + doneAt),
    botCpuMs:
      cpuBefore.mainThreadMs === undefined || cpuAfter.mainThreadMs === undefined
        ? undefined
        : cpuAfter.mainThreadMs - cpuBefore.mainThreadMs,
    rssAfter: after.rss,
    warnings: after.warnings,
  };
}

export async function measureRestartAndDrain(
  tag: string,
  sizes: BacklogSizes,
  rounds: number,
  runtime: FeedBotRuntime,
): Promise<RestartRun> {
  return withBacklogScene(async (scene) => {
    await warmUpFake(scene);
    const hookId = randomBytes(16).toString('hex');
    const idPrefix = `b${tag}`;
    const seeded = await seed(scene, sizes, hookId, idPrefix, runtime);
    log(
      `  seeded the store file: ${sizes.seen} posted rows in ${formatNumber(seeded.seenMs / 1000)} s (raw SQL), ` +
        `${sizes.size} waiting in ${formatNumber(seeded.waitingMs / 1000)} s (store accept); ` +
        `file + WAL ${formatNumber(seeded.fileBytes / 1024 / 1024)} MB`,
    );

    const embedsSoFar = embedCounter(scene.fake, scene.channelIds);
    const restarts: RestartRound[] = [];
    let drained: DrainRun | undefined;
    for (let round = 1; round <= rounds; round += 1) {
      const before = embedsSoFar();
      const messagesBefore = messageCounts(scene);
      const firstPost = whenEmbeds(scene.fake, scene.channelIds, before + 1, 120_000);
      const forkedAt = performance.now();
      const bot = forkFeedBot(runtime);
      try {
        const options = {
          apiUrl: scene.fake.apiUrl,
          token: scene.fake.botToken,
          storeDir: scene.dir,
          guildId: scene.guildId,
          hookId,
        };
        const resumed = await bot.ask({ type: 'resume', options }, 'resumed', 120_000);
        const firstPostAt = await firstPost;
        const restart = {
          firstPostMs: firstPostAt - forkedAt,
          bootMs: local(resumed.requestAt) - forkedAt,
          startBotMs: local(resumed.startBotAt) - forkedAt,
          readyMs: local(resumed.readyAt) - forkedAt,
        };
        restarts.push(restart);
        log(
          `  restart ${round}: first post ${restart.firstPostMs.toFixed(0)} ms after the fork (modules loaded at ` +
            `${restart.bootMs.toFixed(0)} ms, startBot resolved at ${restart.startBotMs.toFixed(0)} ms, client ready at ` +
            `${restart.readyMs.toFixed(0)} ms); ${before} embeds posted before it`,
        );
        if (round === rounds)
          drained = await drain(scene, bot, { embeds: before, messages: messagesBefore, forkedAt }, sizes, firstPostAt);
      } finally {
        await bot.stop();
      }
    }
    if (!drained) throw new Error('no restart round ran');

    const expected = Array.from({ length: sizes.size }, (_, n) => backlogDeliveryId(idPrefix, n));
    const posted = scene.channelIds.flatMap((channelId) => postedIds(scene.fake.messages(channelId)));
    assertPostedOnce('backlog drain', expected, posted);
    if (scene.fake.violations.length > 0) {
      throw new Error(`${scene.fake.violations.length} message bodies Discord would refuse`);
    }
    return { seeded, restarts, drain: drained };
  });
}
