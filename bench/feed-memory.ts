import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startFakeDiscord, type RateLimit } from '../fakes/discord/index.js';
import type { EventName } from '../src/upstream/schemas.js';
import type { BenchGroup } from './group.js';
import { readBareNodeRss } from './lib/bare-node-rss.js';
import { makeRunTag } from './lib/delivery.js';
import { startFeedBotProcess, type FeedBotRuntime } from './lib/feed-bot-process.js';
import { withFeedBotRuntime } from './lib/feed-compile.js';
import {
  assertPostedOnce,
  FEED_BENCH_SECRET,
  makeFeedBurst,
  postConcurrently,
  postedIds,
} from './lib/feed-deliveries.js';
import { logRound, mb, type MemoryRun } from './lib/feed-memory-report.js';
import { whenEmbeds } from './lib/feed-timeline.js';
import { JEMALLOC_CONF, jemallocEnvironment } from './lib/jemalloc.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * feed.rss_mb: the bot process's resident memory after 10,000 events through intake and feed, and
 * feed.rss_growth_mb: how much of it the second 5,000 added; feed.rss_start_mb: the same process at start, idle
 * (Discord ready, hook and routes saved, nothing received yet), and feed.rss_start_ours_mb: that less a bare Node
 * process with the same flags (lib/bare-node-rss.ts), what the bot itself loads and does. The bot runs alone in a
 * child process against a fake Discord in this one, which also sends the load; each figure is taken after the
 * outbox emptied and two full garbage collections (`--expose-gc`), once the RSS stopped falling (V8 returns freed
 * pages a little later). A leak per event shows as growth; the size as the RSS.
 * The child runs compiled JavaScript, as `npm start` does (lib/feed-compile.ts): under tsx, Node 20's loader
 * thread alone adds ~35 MB. BENCH_FEED_TSX=1 runs it through tsx instead, to see that difference.
 */
const ROUNDS = roundCount(3);
const EVENTS = 10_000;
const HALF = EVENTS / 2;
const CONCURRENCY = 16;
/** Generous: the feed, not the limit, sets the pace (discord.js still reads and obeys the headers). */
const LIMIT: RateLimit = { limit: 1_000, windowMs: 1_000 };
/** Four channels, one per event kind, the events taking turns. */
const EVENT_KINDS: readonly EventName[] = ['case.created', 'modcall', 'shift.started', 'session.started'];
/** Issue 23's limit for the bot after 10,000 events; memory figures are the worst round's, not the median. */
const RSS_LIMIT_MB = 120;
/** What the second 5,000 events may add, in every round. */
const GROWTH_LIMIT_MB = 2;

async function measureOnce(tag: string, runtime: FeedBotRuntime, env: NodeJS.ProcessEnv): Promise<MemoryRun> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-feed-memory-'));
  const fake = await startFakeDiscord({ messageRateLimit: LIMIT });
  try {
    const guild = fake.addGuild({
      name: 'Feed Memory Bench',
      channels: EVENT_KINDS.map((_, i) => ({ name: `feed-${i}` })),
    });
    const channelIds = EVENT_KINDS.map((_, i) => {
      const id = guild.channels[`feed-${i}`];
      if (!id) throw new Error(`the fake made no channel feed-${i}`);
      return id;
    });
    const routes = Object.fromEntries(EVENT_KINDS.map((event, i) => [event, channelIds[i] as string]));
    const bare = await readBareNodeRss();
    const bot = await startFeedBotProcess(
      {
        apiUrl: fake.apiUrl,
        token: fake.botToken,
        storeDir: dir,
        guildId: guild.id,
        routes,
        secret: FEED_BENCH_SECRET,
      },
      runtime,
      env,
    );
    try {
      const start = await bot.measure();
      const deliveries = makeFeedBurst(tag, EVENTS, EVENT_KINDS);
      const send = async (from: number, to: number) => {
        const arrived = whenEmbeds(fake, channelIds, to, 300_000);
        const started = performance.now();
        await postConcurrently(bot.webhookUrl, FEED_BENCH_SECRET, deliveries.slice(from, to), CONCURRENCY);
        return (await arrived) - started;
      };
      const firstMs = await send(0, HALF);
      const half = await bot.measure();
      const secondMs = await send(HALF, EVENTS);
      const full = await bot.measure();

      const posted = channelIds.flatMap((channelId) => postedIds(fake.messages(channelId)));
      assertPostedOnce(
        'feed',
        deliveries.map((delivery) => delivery.id),
        posted,
      );
      if (fake.violations.length > 0) throw new Error(`${fake.violations.length} bodies Discord would refuse`);
      if (full.warnings > 0) log(`  ! the bot logged ${full.warnings} warnings, e.g. ${full.firstWarning ?? ''}`);
      return { start, half, full, halfMs: [firstMs, secondMs], bare };
    } finally {
      await bot.stop();
    }
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const worst = (values: readonly number[]) => Math.max(...values);

/** `ROUNDS` rounds with the bot process on `env`, each printed; the runs in order. */
async function measureRounds(tag: string, runtime: FeedBotRuntime, env: NodeJS.ProcessEnv): Promise<MemoryRun[]> {
  const runs: MemoryRun[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    const run = await measureOnce(`${tag}m${round}`, runtime, env);
    runs.push(run);
    logRound(round, run, HALF, EVENTS);
  }
  return runs;
}

export const feedMemoryGroup: BenchGroup = {
  name: 'feed-memory',
  figures: [
    'feed.rss_mb',
    'feed.rss_growth_mb',
    'feed.rss_vs_limit',
    'feed.rss_start_mb',
    'feed.rss_start_ours_mb',
    'feed.rss_mb_jemalloc',
  ],
  async run(figures) {
    log(
      `feed-memory: RSS of the bot process (child, --expose-gc, after GC, once settled) after ${HALF} and ${EVENTS} signed deliveries through intake and feed; ` +
        `${CONCURRENCY} in flight, ${EVENT_KINDS.length} channels, fake Discord limit ${LIMIT.limit} per ${LIMIT.windowMs} ms; ${ROUNDS} rounds`,
    );
    const tag = makeRunTag();
    const jemalloc = jemallocEnvironment();
    let runs: MemoryRun[] = [];
    let onJemalloc: MemoryRun[] = [];
    await withFeedBotRuntime(async (runtime) => {
      log("  with glibc's malloc (`npm start` on a host):");
      runs = await measureRounds(tag, runtime, process.env);
      if (jemalloc === undefined) {
        log('  with jemalloc (the image, the systemd unit): not measured, libjemalloc2 is not installed here');
        return;
      }
      log(
        `  with jemalloc (the image, the systemd unit: LD_PRELOAD ${jemalloc.LD_PRELOAD}, MALLOC_CONF ${JEMALLOC_CONF}):`,
      );
      onJemalloc = await measureRounds(`${tag}j`, runtime, jemalloc);
    });
    const startRss = runs.map((run) => mb(run.start.rss));
    const ours = runs.flatMap((run) => (run.bare ? [mb(run.start.rss - run.bare.rss)] : []));
    const rss = runs.map((run) => mb(run.full.rss));
    const growth = runs.map((run) => mb(run.full.rss - run.half.rss));
    const heapGrowth = runs.map((run) => mb(run.full.heapUsed - run.half.heapUsed));
    log(`  rss at start MB: ${formatList(startRss)} -> worst ${formatNumber(worst(startRss))}`);
    if (ours.length > 0) {
      log(`  rss at start less a bare Node process MB: ${formatList(ours)} -> worst ${formatNumber(worst(ours))}`);
    }
    log(`  rss after ${EVENTS} MB: ${formatList(rss)} -> worst ${formatNumber(worst(rss))} (target < ${RSS_LIMIT_MB})`);
    log(
      `  rss growth ${HALF} -> ${EVENTS} MB: ${formatList(growth)} -> worst ${formatNumber(worst(growth))} (target < ${GROWTH_LIMIT_MB})`,
    );
    log(
      `  heap-used growth ${HALF} -> ${EVENTS} MB: ${formatList(heapGrowth)} -> median ${formatNumber(median(heapGrowth))}`,
    );
    // Memory holds for the worst round (issue 23): a median would hide the round that runs out of memory.
    figures.add('feed.rss_mb', worst(rss), 'MB');
    figures.add('feed.rss_growth_mb', worst(growth), 'MB');
    figures.add('feed.rss_vs_limit', worst(rss) / RSS_LIMIT_MB, 'x');
    figures.add('feed.rss_start_mb', worst(startRss), 'MB');
    if (ours.length > 0) figures.add('feed.rss_start_ours_mb', worst(ours), 'MB');
    if (onJemalloc.length > 0) {
      const jemallocRss = onJemalloc.map((run) => mb(run.full.rss));
      const jemallocGrowth = onJemalloc.map((run) => mb(run.full.rss - run.half.rss));
      log(
        `  with jemalloc: rss at start MB ${formatList(onJemalloc.map((run) => mb(run.start.rss)))}; ` +
          `after ${EVENTS} MB ${formatList(jemallocRss)} -> worst ${formatNumber(worst(jemallocRss))} (target < ${RSS_LIMIT_MB}); ` +
          `growth ${HALF} -> ${EVENTS} MB ${formatList(jemallocGrowth)} -> worst ${formatNumber(worst(jemallocGrowth))} (target < ${GROWTH_LIMIT_MB})`,
      );
      figures.add('feed.rss_mb_jemalloc', worst(jemallocRss), 'MB');
    }
  },
};
