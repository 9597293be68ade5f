import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import { writeHeapSnapshot } from 'node:v8';

import { fillBacklog } from './backlog-fill.js';
import { seedBacklogStore } from './backlog-seed.js';
import { measureDiscordHeapParts } from './discord-heap-parts.js';
import type { FeedBotMemory, FeedBotReply, FeedBotRequest } from './feed-bot-protocol.js';
import { resumeFeedBot, startFeedBot, waitForEmptyOutbox, type FeedBot } from './feed-bot.js';
import { readMemoryBreakdown } from './memory-breakdown.js';
import { applySqliteCacheOverride } from './sqlite-cache-override.js';
import { mainThreadCpuMs, wallClockMs } from './timing.js';

/**
 * The bot process of the feed benchmarks: the real bot alone (intake, SQLite outbox, feed, discord.js), so its
 * memory and CPU are measured without the fake Discord's stored messages or the load generator. Forked by
 * lib/feed-bot-process.ts with `--expose-gc`; driven over IPC (lib/feed-bot-protocol.ts).
 */

let feed: FeedBot | undefined;

/** How often the RSS is read after a collection, and by how little it must fall to count as still falling. */
const SETTLE_STEP_MS = 100;
const SETTLED_BYTES = 256 * 1024;
/**
 * Written after each reading, to see where the RSS is: BENCH_SMAPS_DIR gets a copy of /proc/self/smaps (its
 * mappings) and the names of the process's threads; BENCH_HEAP_SNAPSHOT_DIR a heap snapshot (what the JS heap
 * holds), which makes the later readings larger: taking one allocates native memory that stays.
 */
const SMAPS_DIR = process.env.BENCH_SMAPS_DIR;
const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT_DIR;
let readings = 0;

applySqliteCacheOverride();

function reply(message: FeedBotReply, then: () => void = () => {}): void {
  if (process.connected) process.send?.(message, then);
}

/** A `VmRss`-style line of /proc/self/status in bytes; undefined off Linux. */
function procStatus(field: string): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
    return match ? Number(match[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

async function snapshot(bot: FeedBot): Promise<FeedBotMemory> {
  const collect = globalThis.gc;
  if (!collect) throw new Error('start the bot process with --expose-gc');
  // Twice, a turn apart: what the first collection finalises (sockets, timers) the second one frees.
  collect();
  await nextTurn();
  collect();
  // V8 returns the pages a collection freed to the OS from a background thread, a little later; until then they
  // count in the RSS (up to ~50 MB here, which made the growth between two readings noise). Read once the RSS
  // stops falling (at most 2 s, the bot idle meanwhile), and report the reading right after the GC too.
  const rssAtGc = process.memoryUsage.rss();
  for (let rss = rssAtGc, waited = 0; waited < 2_000; waited += SETTLE_STEP_MS) {
    await sleep(SETTLE_STEP_MS);
    const now = process.memoryUsage.rss();
    if (now > rss - SETTLED_BYTES) break;
    rss = now;
  }
  const usage = process.memoryUsage();
  const warnings = bot.warnings();
  const memory: FeedBotMemory = {
    type: 'memory',
    rss: usage.rss,
    rssAtGc,
    heapUsed: usage.heapUsed,
    heapTotal: usage.heapTotal,
    external: usage.external,
    arrayBuffers: usage.arrayBuffers,
    rssAnon: procStatus('RssAnon'),
    rssFile: procStatus('RssFile'),
    breakdown: readMemoryBreakdown(bot.storeFile, bot.bot.discord),
    mallocArenaMax: process.env.MALLOC_ARENA_MAX,
    outbox: await bot.bot.store.deliveries.countOpen(),
    warnings: warnings.count,
    firstWarning: warnings.first[0],
  };
  // Written after the reading: they allocate.
  readings += 1;
  const name = `feed-bot-${process.pid}-${readings}`;
  if (SMAPS_DIR) {
    writeFileSync(join(SMAPS_DIR, `${name}.smaps`), readFileSync('/proc/self/smaps'));
    // Each thread that allocates gets a glibc arena of its own: which threads there are.
    const threads = readdirSync('/proc/self/task').map((id) => readFileSync(`/proc/self/task/${id}/comm`, 'utf8'));
    writeFileSync(join(SMAPS_DIR, `${name}.threads`), threads.join(''));
  }
  if (SNAPSHOT_DIR) writeHeapSnapshot(join(SNAPSHOT_DIR, `${name}.heapsnapshot`));
  return memory;
}

function running(): FeedBot {
  if (!feed) throw new Error('the bot is not started');
  return feed;
}

async function handle(request: FeedBotRequest): Promise<void> {
  switch (request.type) {
    case 'start':
      feed = await startFeedBot(request.options);
      reply({
        type: 'ready',
        webhookUrl: feed.webhookUrl,
        moreWebhookUrls: feed.moreWebhookUrls,
        processStartAt: performance.timeOrigin,
        readyAt: feed.readyAt,
      });
      return;
    case 'resume': {
      const requestAt = wallClockMs();
      const resumed = await resumeFeedBot(request.options);
      feed = resumed.feed;
      reply({
        type: 'resumed',
        webhookUrl: feed.webhookUrl,
        processStartAt: performance.timeOrigin,
        requestAt,
        startBotAt: resumed.startBotAt,
        readyAt: resumed.readyAt,
      });
      return;
    }
    case 'seed':
      reply({ type: 'seeded', ...(await seedBacklogStore(request.seed)) });
      return;
    case 'fill': {
      const bot = running();
      const started = performance.now();
      await fillBacklog(bot.bot.store.deliveries, bot, request.fill);
      const ms = performance.now() - started;
      reply({ type: 'filled', open: await bot.bot.store.deliveries.countOpen(), ms });
      return;
    }
    case 'cpu': {
      const usage = process.cpuUsage();
      reply({ type: 'cpu', mainThreadMs: mainThreadCpuMs(), processMs: (usage.user + usage.system) / 1000 });
      return;
    }
    case 'snapshot':
      reply(await snapshot(running()));
      return;
    case 'measure':
      await waitForEmptyOutbox(running().bot, 120_000);
      reply(await snapshot(running()));
      return;
    case 'lanes': {
      const bot = running();
      const status = await bot.bot.store.deliveries.statusOf(bot.guildId);
      reply({ type: 'lanes', retrying: status.retrying.length, waiting: status.waiting });
      return;
    }
    case 'discord-heap': {
      const client = running().bot.discord;
      if (!client) throw new Error('the bot runs without Discord');
      reply(await measureDiscordHeapParts(client));
      return;
    }
    case 'stop':
      await feed?.stop();
      feed = undefined;
      reply({ type: 'stopped' }, () => process.exit(0));
      return;
  }
}

process.on('message', (request: FeedBotRequest) => {
  handle(request).catch((error: unknown) => {
    reply({ type: 'failed', message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  });
});
// The benchmark went away (failed, or was killed): stop the bot, which closes the store, and leave.
process.on('disconnect', () => {
  void (feed?.stop() ?? Promise.resolve()).finally(() => process.exit(1));
});
