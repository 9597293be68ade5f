import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startFakeDiscord, type FakeDiscord, type FakeMessage } from '../fakes/discord/index.js';
import type { BenchGroup } from './group.js';
import { makeRunTag } from './lib/delivery.js';
import { startFeedBotProcess, type FeedBotProcess, type FeedBotRuntime } from './lib/feed-bot-process.js';
import type { RuledGuild } from './lib/feed-bot.js';
import { withFeedBotRuntime } from './lib/feed-compile.js';
import {
  assertPostedInOrder,
  FEED_BENCH_SECRET,
  feedDeliveryId,
  makeFeedDelivery,
  postDelivery,
  postedIds,
} from './lib/feed-deliveries.js';
import { whenEmbeds } from './lib/feed-timeline.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, percentile, roundCount, sleep } from './lib/stats.js';

/**
 * feed.post_latency_p99_ms: the latency a user sees. One quiet channel gets a case now and then while 100 other
 * channels are busy; each quiet case is timed from the intake's 2xx (as the sender saw it) to its message at the fake
 * Discord, which answers at once (Discord's per-channel limit of 5 per 5 s applies, nothing is slowed down). The
 * figure is the median over the rounds of each round's p99, printed against its 100 ms limit
 * (feed.post_latency_p99_vs_limit). In the same round, before the busy channels start, the same quiet channel alone:
 * its p99 is the bot's own path (intake, store, lane, batch window, send), the floor of the figure.
 *
 * Busy: 100 channels (4 guilds of 25, each channel a rule by game server; a guild has at most 40 rules), 2
 * `case.created` a second each, 200 a second in all, sent open loop: more posts than Discord's global 50 a second
 * can carry one case each, so the lanes of the busy channels always have work and the bot's whole send budget is
 * spent (each busy channel posts every ~2 s, several embeds a message). The quiet channel's cases come alone, 1.3 to
 * 2.5 s apart (under its own per-channel limit).
 *
 * The bot runs alone in a child process (lib/feed-bot-child.ts, compiled), as in feed-drain; the fake Discord and the
 * senders run here.
 */
const ROUNDS = roundCount(3);
const LIMIT_MS = 100;
const BUSY_GUILDS = 4;
const BUSY_CHANNELS_PER_GUILD = 25;
const BUSY_PER_CHANNEL_PER_SECOND = 2;
/** The busy sender's tick: a tick's share of the rate is sent at once, each to the next channel in turn. */
const TICK_MS = 50;
/** Past this many busy deliveries unanswered the sender skips a tick (and says so): the intake, not the feed, lags. */
const MAX_BUSY_IN_FLIGHT = 400;
const ALONE_EVENTS = 10;
const BUSY_EVENTS = 30;
/** Busy traffic before the first quiet case is timed: every busy lane has work and the budget is spent. */
const BUSY_WARM_UP_MS = 5_000;
const QUIET_GAP_MS = { min: 1_300, max: 2_500 };

interface Scene {
  fake: FakeDiscord;
  quietGuildId: string;
  quietChannelId: string;
  busyGuilds: RuledGuild[];
  busyChannelIds: string[];
  dir: string;
}

async function withScene<T>(work: (scene: Scene) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-feed-latency-'));
  const fake = await startFakeDiscord();
  try {
    const quiet = fake.addGuild({ name: 'Quiet', channels: [{ name: 'quiet' }] });
    const quietChannelId = quiet.channels.quiet;
    if (!quietChannelId) throw new Error('the fake made no quiet channel');
    const busyGuilds: RuledGuild[] = [];
    const busyChannelIds: string[] = [];
    for (let g = 0; g < BUSY_GUILDS; g += 1) {
      const names = Array.from({ length: BUSY_CHANNELS_PER_GUILD }, (_, i) => `busy-${g}-${i}`);
      const guild = fake.addGuild({ name: `Busy ${g}`, channels: names.map((name) => ({ name })) });
      busyChannelIds.push(...guild.channelIds);
      busyGuilds.push({
        guildId: guild.id,
        rules: guild.channelIds.map((channelId, i) => ({ server: serverOf(g, i), channelId })),
      });
    }
    return await work({ fake, quietGuildId: quiet.id, quietChannelId, busyGuilds, busyChannelIds, dir });
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function serverOf(guild: number, channel: number): string {
  return `srv_busy_${guild}_${channel}`;
}

/** What the busy sender did, for the round's log line. */
interface BusyReport {
  sent: number;
  refused: number;
  skippedTicks: number;
}

/** Sends the busy channels' cases open loop until stopped; every delivery is one channel's, in turn. */
function startBusyTraffic(bot: FeedBotProcess, tag: string): { stop: () => Promise<BusyReport> } {
  const perTick = (BUSY_GUILDS * BUSY_CHANNELS_PER_GUILD * BUSY_PER_CHANNEL_PER_SECOND * TICK_MS) / 1000;
  const inFlight = new Set<Promise<void>>();
  const report: BusyReport = { sent: 0, refused: 0, skippedTicks: 0 };
  let n = 0;
  const tick = () => {
    if (inFlight.size > MAX_BUSY_IN_FLIGHT) {
      report.skippedTicks += 1;
      return;
    }
    for (let i = 0; i < perTick; i += 1) {
      const channel = n % (BUSY_GUILDS * BUSY_CHANNELS_PER_GUILD);
      const guild = Math.floor(channel / BUSY_CHANNELS_PER_GUILD);
      const url = bot.moreWebhookUrls[guild];
      if (url === undefined) throw new Error(`no hook for busy guild ${guild}`);
      const delivery = makeFeedDelivery(
        'case.created',
        feedDeliveryId(`${tag}b`, n),
        n,
        serverOf(guild, channel % BUSY_CHANNELS_PER_GUILD),
      );
      n += 1;
      const sending: Promise<void> = postDelivery(url, FEED_BENCH_SECRET, delivery)
        .then((status) => {
          if (status < 200 || status >= 300) report.refused += 1;
        })
        .catch(() => {
          report.refused += 1;
        })
        .finally(() => inFlight.delete(sending));
      inFlight.add(sending);
      report.sent += 1;
    }
  };
  const timer = setInterval(tick, TICK_MS);
  return {
    async stop() {
      clearInterval(timer);
      await Promise.all(inFlight);
      return report;
    },
  };
}

/** Posts quiet case number `n` and resolves with ms from the intake's 2xx to its message at the fake. */
async function timeQuietCase(bot: FeedBotProcess, scene: Scene, tag: string, n: number): Promise<number> {
  const arrived = whenEmbeds(scene.fake, [scene.quietChannelId], n + 1, 30_000);
  const delivery = makeFeedDelivery('case.created', feedDeliveryId(`${tag}q`, n), n);
  const status = await postDelivery(bot.webhookUrl, FEED_BENCH_SECRET, delivery);
  const answeredAt = performance.now();
  if (status < 200 || status >= 300) throw new Error(`the intake answered ${status} to quiet case ${n}`);
  return (await arrived) - answeredAt;
}

function quietGap(): Promise<void> {
  return sleep(QUIET_GAP_MS.min + Math.random() * (QUIET_GAP_MS.max - QUIET_GAP_MS.min));
}

/** The messages the fake made in `channelIds` from `sinceWallMs` on (ms since the Unix epoch, the fake's clock). */
function messagesSince(fake: FakeDiscord, channelIds: readonly string[], sinceWallMs: number): FakeMessage[] {
  return channelIds
    .flatMap((channelId) => fake.messages(channelId))
    .filter((message) => Date.parse(message.api.timestamp) >= sinceWallMs);
}

interface Round {
  alone: number[];
  busy: number[];
}

async function measureRound(round: number, runtime: FeedBotRuntime): Promise<Round> {
  const tag = makeRunTag();
  return withScene(async (scene) => {
    const bot = await startFeedBotProcess(
      {
        apiUrl: scene.fake.apiUrl,
        token: scene.fake.botToken,
        storeDir: scene.dir,
        guildId: scene.quietGuildId,
        routes: { 'case.created': scene.quietChannelId },
        secret: FEED_BENCH_SECRET,
        moreGuilds: scene.busyGuilds,
      },
      runtime,
    );
    try {
      let n = 0;
      // Not timed: the fake compiles Discord's schema at its first message create, and the bot's paths run cold.
      await timeQuietCase(bot, scene, tag, n++);
      await quietGap();
      const alone: number[] = [];
      for (let i = 0; i < ALONE_EVENTS; i += 1) {
        alone.push(await timeQuietCase(bot, scene, tag, n++));
        await quietGap();
      }

      const busyTraffic = startBusyTraffic(bot, tag);
      let report: BusyReport;
      const busy: number[] = [];
      let timedFrom = 0;
      try {
        await sleep(BUSY_WARM_UP_MS);
        timedFrom = Date.now();
        for (let i = 0; i < BUSY_EVENTS; i += 1) {
          busy.push(await timeQuietCase(bot, scene, tag, n++));
          await quietGap();
        }
      } finally {
        report = await busyTraffic.stop();
      }
      const timedSec = (Date.now() - timedFrom) / 1000;
      const busyMessages = messagesSince(scene.fake, scene.busyChannelIds, timedFrom);
      const embeds = busyMessages.map((message) => message.embeds.length);
      log(
        `  round ${round}: busy channels got ${formatNumber(busyMessages.length / timedSec)} messages/s while timed ` +
          `(median ${formatNumber(median(embeds))} embeds a message); busy sender ${report.sent} cases ` +
          `(${formatNumber(report.sent / (BUSY_WARM_UP_MS / 1000 + timedSec))}/s), ${report.refused} not 2xx, ${report.skippedTicks} ticks skipped`,
      );
      // Waits until the busy backlog is posted: nothing posts after that, so a duplicate would show.
      const after = await bot.measure();
      if (after.warnings > 0) log(`  ! the bot logged ${after.warnings} warnings, e.g. ${after.firstWarning ?? ''}`);
      const quietIds = Array.from({ length: n }, (_, i) => feedDeliveryId(`${tag}q`, i));
      assertPostedInOrder('quiet channel', quietIds, postedIds(scene.fake.messages(scene.quietChannelId)));
      if (scene.fake.violations.length > 0) {
        throw new Error(`the fake refused ${scene.fake.violations.length} bodies Discord would refuse`);
      }
      log(
        `  round ${round}: quiet alone ${formatList(alone)} ms; while 100 channels are busy ` +
          `${formatList(busy)} ms; ${scene.fake.rateLimitHits} x 429`,
      );
      return { alone, busy };
    } finally {
      await bot.stop();
    }
  });
}

export const feedLatencyGroup: BenchGroup = {
  name: 'feed-latency',
  figures: ['feed.post_latency_p99_ms', 'feed.post_latency_p99_vs_limit'],
  async run(figures) {
    log(
      `feed-latency: a quiet channel's case, intake 2xx -> its message at the fake Discord (answering at once), ` +
        `alone and while ${BUSY_GUILDS * BUSY_CHANNELS_PER_GUILD} channels get ${BUSY_PER_CHANNEL_PER_SECOND} cases/s each; ` +
        `${ROUNDS} rounds of ${ALONE_EVENTS} + ${BUSY_EVENTS} quiet cases`,
    );
    const alone: number[] = [];
    const busy: number[] = [];
    await withFeedBotRuntime(async (runtime) => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        const run = await measureRound(round, runtime);
        alone.push(percentile(run.alone, 99));
        busy.push(percentile(run.busy, 99));
        log(
          `  round ${round}: p99 alone ${formatNumber(percentile(run.alone, 99))} ms (median ${formatNumber(median(run.alone))}), ` +
            `busy ${formatNumber(percentile(run.busy, 99))} ms (median ${formatNumber(median(run.busy))})`,
        );
      }
    });
    const p99 = median(busy);
    log(
      `  p99 per round: busy ${formatList(busy)} -> median ${formatNumber(p99)} ms (limit ${LIMIT_MS} ms); ` +
        `alone ${formatList(alone)} -> median ${formatNumber(median(alone))} ms (the bot's own path)`,
    );
    figures.add('feed.post_latency_p99_ms', p99, 'ms');
    figures.add('feed.post_latency_p99_vs_limit', p99 / LIMIT_MS, 'x');
  },
};
