import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';

import { chatInputCommand, commandOption, startFakeDiscord, type FakeDiscord } from '../fakes/discord/index.js';
import { STORE_MODULES } from '../src/features/index.js';
import { openStore } from '../src/store/open-store.js';
import type { EventName } from '../src/upstream/schemas.js';
import { GENEROUS_LIMIT } from './lib/backlog-scene.js';
import { makeRunTag } from './lib/delivery.js';
import { startFeedBot, storeFileOf, type FeedBot } from './lib/feed-bot.js';
import {
  assertPostedInOrder,
  FEED_BENCH_SECRET,
  feedDeliveryId,
  makeFeedDelivery,
  postDelivery,
  postedIds,
  type FeedDelivery,
} from './lib/feed-deliveries.js';
import { whenEmbeds } from './lib/feed-timeline.js';
import { log, type Figures } from './lib/report.js';
import { formatList, formatNumber, median, percentile, roundCount, sleep } from './lib/stats.js';

/**
 * oversight.replay_live_delay_p99_ms: how much later than normal the live events of other channels are posted while
 * /feed replay posts 10,000 events into one channel. The bot runs here (startBot, SQLite) against the fake Discord,
 * whose per-channel limit is generous (the replay then goes as fast as the feed's pacer lets it: its spare sends,
 * at most half of the sends, in what the lanes leave; Discord's own 5 per 5 s per channel would make it 20 times slower,
 * and kinder to the live feed). The store is seeded with 10,000 case.created posted to a channel in the last hour
 * (bodies kept: the replay window), then case.created is routed to the replay channel and `/feed replay` starts.
 *
 * Six live channels (one event each) get an event every 0.6 to 1.2 s, each timed from the intake's 2xx to its
 * embed at the fake. First without a replay (normal: the median of those latencies), then while the replay runs;
 * the figure is the p99 of (latency during the replay - normal), the median over rounds, against its 1,000 ms limit
 * (oversight.replay_live_delay_p99_vs_limit). The replay is then awaited: each of its 10,000 events once, in order.
 */
export const REPLAY_FIGURES = ['oversight.replay_live_delay_p99_ms', 'oversight.replay_live_delay_p99_vs_limit'];

const ROUNDS = roundCount(3);
const LIMIT_MS = 1_000;
const REPLAYED = 10_000;
const LIVE_EVENTS: readonly EventName[] = [
  'shift.started',
  'shift.ended',
  'session.started',
  'session.ended',
  'case.voided',
  'modcall',
];
const LIVE_PER_CHANNEL = 12;
const LIVE_GAP_MS = { min: 600, max: 1_200 };
const HOUR_MS = 60 * 60 * 1000;

interface Scene {
  fake: FakeDiscord;
  guildId: string;
  replayChannelId: string;
  formerChannelId: string;
  liveChannelIds: string[];
}

async function withScene<T>(work: (scene: Scene, dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-replay-bench-'));
  const fake = await startFakeDiscord({ messageRateLimit: GENEROUS_LIMIT });
  try {
    const names = ['replay', 'former', ...LIVE_EVENTS.map((_, i) => `live-${i}`)];
    const guild = fake.addGuild({ name: 'Replay Bench', channels: names.map((name) => ({ name })) });
    const id = (name: string) => {
      const channelId = guild.channels[name];
      if (!channelId) throw new Error(`the fake made no channel ${name}`);
      return channelId;
    };
    return await work(
      {
        fake,
        guildId: guild.id,
        replayChannelId: id('replay'),
        formerChannelId: id('former'),
        liveChannelIds: LIVE_EVENTS.map((_, i) => id(`live-${i}`)),
      },
      dir,
    );
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The schema, then REPLAYED case.created posted to the former channel within the last hour, bodies kept. */
async function seed(storeFile: string, scene: Scene, tag: string): Promise<string[]> {
  const store = await openStore(`sqlite://${storeFile}`, STORE_MODULES);
  await store.close();
  const db = new Database(storeFile);
  const ids: string[] = [];
  try {
    const insert = db.prepare(`
      INSERT INTO delivery (hook_id, delivery_id, guild_id, event, received_at, raw_body, state, channel_id, posted_at)
      VALUES ('seeded', ?, ?, 'case.created', ?, ?, 'posted', ?, ?)`);
    const start = Date.now() - HOUR_MS;
    db.transaction(() => {
      for (let n = 0; n < REPLAYED; n += 1) {
        const delivery = makeFeedDelivery('case.created', feedDeliveryId(tag, n), n);
        const at = start + n * 100;
        insert.run(delivery.id, scene.guildId, at, delivery.body, scene.formerChannelId, at + 50);
        ids.push(delivery.id);
      }
    })();
  } finally {
    db.close();
  }
  return ids;
}

/**
 * A live event of a shift, session or case of its own: the fixture's ids are one shift, one session and one case,
 * and the bot folds a second end of the same shift or session, or a second void of the same case, into the card it
 * already posted (an edit, no new embed), which the timing below would wait for in vain.
 */
function liveDelivery(event: EventName, id: string, n: number): FeedDelivery {
  const delivery = makeFeedDelivery(event, id, n);
  const body = JSON.parse(delivery.body) as { data: Record<string, Record<string, unknown>> };
  const own = 100_000 + n;
  if (body.data['shift']) body.data['shift']['id'] = own;
  if (body.data['session']) body.data['session']['id'] = own;
  if (event === 'case.voided' && body.data['case']) body.data['case']['number'] = own;
  return { ...delivery, body: JSON.stringify(body) };
}

/** Each live channel gets LIVE_PER_CHANNEL events, one at a time, each timed from its 2xx to its embed. */
async function timeLive(bot: FeedBot, scene: Scene, tag: string, first: number): Promise<number[]> {
  const latencies: number[] = [];
  await Promise.all(
    LIVE_EVENTS.map(async (event, channel) => {
      const channelId = scene.liveChannelIds[channel] ?? '';
      for (let n = 0; n < LIVE_PER_CHANNEL; n += 1) {
        const number = first + channel * LIVE_PER_CHANNEL + n;
        const delivery = liveDelivery(event, feedDeliveryId(`${tag}l`, number), number);
        const embeds = scene.fake.messages(channelId).reduce((sum, message) => sum + message.embeds.length, 0);
        const arrived = whenEmbeds(scene.fake, [channelId], embeds + 1, 30_000);
        const status = await postDelivery(bot.webhookUrl, FEED_BENCH_SECRET, delivery);
        const acked = performance.now();
        if (status < 200 || status >= 300) throw new Error(`the intake answered ${status}`);
        latencies.push((await arrived) - acked);
        await sleep(LIVE_GAP_MS.min + Math.random() * (LIVE_GAP_MS.max - LIVE_GAP_MS.min));
      }
    }),
  );
  return latencies;
}

interface ReplayRound {
  normalMs: number;
  delays: number[];
  replayedDuring: number;
  replayMs: number;
}

async function measureRound(tag: string): Promise<ReplayRound> {
  return withScene(async (scene, dir) => {
    const expected = await seed(storeFileOf(dir), scene, tag);
    const routes: Record<string, string> = { 'case.created': scene.replayChannelId };
    LIVE_EVENTS.forEach((event, i) => (routes[event] = scene.liveChannelIds[i] ?? ''));
    const bot = await startFeedBot({
      apiUrl: scene.fake.apiUrl,
      token: scene.fake.botToken,
      storeDir: dir,
      guildId: scene.guildId,
      routes,
      secret: FEED_BENCH_SECRET,
    });
    try {
      const normal = await timeLive(bot, scene, tag, 0);
      const normalMs = median(normal);

      const replayStarted = performance.now();
      const outcome = await scene.fake.dispatchInteraction(
        chatInputCommand({
          name: 'feed',
          subcommand: 'replay',
          options: [commandOption.channel('channel', scene.replayChannelId), commandOption.integer('hours', 2)],
          as: 'admin',
          guildId: scene.guildId,
        }),
      );
      if (!outcome.reply?.content?.startsWith('Replaying')) {
        throw new Error(`/feed replay answered: ${outcome.reply?.content ?? 'nothing'}`);
      }
      await whenEmbeds(scene.fake, [scene.replayChannelId], 10, 30_000);
      const during = await timeLive(bot, scene, tag, 1_000);
      const replayedDuring = postedIds(scene.fake.messages(scene.replayChannelId)).length;
      await whenEmbeds(scene.fake, [scene.replayChannelId], REPLAYED, 600_000);
      const replayMs = performance.now() - replayStarted;
      assertPostedInOrder('the replay', expected, postedIds(scene.fake.messages(scene.replayChannelId)));
      return { normalMs, delays: during.map((latency) => latency - normalMs), replayedDuring, replayMs };
    } finally {
      await bot.stop();
    }
  });
}

/** The replay part of the oversight group: its figures are {@link REPLAY_FIGURES}. */
export async function measureReplayLiveDelay(figures: Figures): Promise<void> {
  log(
    `oversight replay: ${REPLAYED} events replayed into one channel while ${LIVE_EVENTS.length} live channels get an ` +
      `event every ${LIVE_GAP_MS.min}-${LIVE_GAP_MS.max} ms (${LIVE_PER_CHANNEL} each, timed); ${ROUNDS} rounds`,
  );
  const tag = makeRunTag().slice(0, 6);
  const p99s: number[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const run = await measureRound(`${tag}${round}`);
    const p99 = percentile(run.delays, 99);
    p99s.push(p99);
    log(
      `  round ${round}: normal live latency (median, no replay) ${formatNumber(run.normalMs)} ms; during the replay ` +
        `p99 ${formatNumber(p99)} ms later, median ${formatNumber(median(run.delays))} ms; ${run.replayedDuring} of ` +
        `${REPLAYED} replayed by the end of the live events; the whole replay ${formatNumber(run.replayMs / 1000)} s, ` +
        'each event once, in order',
    );
  }
  const figure = median(p99s);
  log(
    `  oversight.replay_live_delay_p99_ms: ${formatList(p99s)} -> median ${formatNumber(figure)} (limit ${LIMIT_MS} ms)`,
  );
  figures.add('oversight.replay_live_delay_p99_ms', figure, 'ms');
  figures.add('oversight.replay_live_delay_p99_vs_limit', figure / LIMIT_MS, 'x');
}
