import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { REALISTIC_GUILD, startFakeDiscord } from '../fakes/discord/index.js';
import type { BenchGroup } from './group.js';
import type { DiscordHeapParts } from './lib/discord-heap-parts.js';
import { forkFeedBot, type FeedBotRuntime } from './lib/feed-bot-process.js';
import type { FeedBotMemory } from './lib/feed-bot-protocol.js';
import { withFeedBotRuntime } from './lib/feed-compile.js';
import { FEED_BENCH_SECRET } from './lib/feed-deliveries.js';
import { mb } from './lib/feed-memory-report.js';
import {
  addRealisticGuilds,
  checkGuildsLoad,
  GUILDS,
  IDENTIFY_SPACING_MS,
  identifyPacingMs,
  MAX_CONCURRENCY,
  SHARDS,
} from './lib/guilds-load.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * guilds.*: the bot's gateway process (the real bot, `startBot` on SQLite, compiled and started with npm start's
 * flags, lib/feed-bot-child.ts) logged in to a fake Discord holding many realistic guilds (30 channels, 25 roles,
 * about 60 permission overwrites and 3 members in voice each: fakes/discord/realistic-guild.ts) over Discord's
 * recommended shards, all in this one process. Each round starts it twice, against a fake with the guilds and
 * against the same fake with none (same shards, same identify pacing), the order rotating: its heap and RSS after
 * ready (after a full GC), and the time from the process's start to discord.js's ready (every shard identified,
 * every GUILD_CREATE handled). guilds.heap_kb_per_guild is the heap after ready less the no-guild process's, over
 * the guilds (limit 12 KB); guilds.ready_added_ms the ready time less the no-guild process's (limit 5 s); then, in the first round, the process with guilds drops discord.js's caches one part at a time
 * (lib/discord-heap-parts.ts) to say where that heap goes. The same guilds over four processes on PostgreSQL are
 * the `guilds-spread` group's (guilds-spread.ts).
 */
const ROUNDS = roundCount(2);
/** Issue 48's target for a realistic guild. */
const HEAP_KB_PER_GUILD_LIMIT = 12;

interface Run {
  guilds: number;
  memory: FeedBotMemory;
  /** From the process's start to the discord.js client's ready, ms. */
  readyMs: number;
  parts: DiscordHeapParts | undefined;
}

/**
 * What the guilds may add to the ready time, beside the same process with none (same start, same pacing): one
 * shard's 5 s. The GUILD_CREATEs of a shard are handled while the next one waits its turn to identify, so a process
 * that keeps up adds only the last shard's.
 */
const READY_ADDED_LIMIT_MS = IDENTIFY_SPACING_MS;

async function measureOnce(guilds: number, runtime: FeedBotRuntime, breakDown: boolean): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-guilds-'));
  const fake = await startFakeDiscord({ shards: SHARDS, maxConcurrency: MAX_CONCURRENCY });
  try {
    const ids = addRealisticGuilds(fake, guilds).map((guild) => guild.id);
    const child = forkFeedBot(runtime);
    try {
      // Generous: the pacing, and a second a hundred guilds for a loaded machine.
      const readyTimeoutMs = identifyPacingMs() + 30_000 + guilds * 10;
      const ready = await child.ask(
        {
          type: 'start',
          options: {
            apiUrl: fake.apiUrl,
            token: fake.botToken,
            storeDir: dir,
            guildId: ids[0] ?? '1',
            routes: {},
            secret: FEED_BENCH_SECRET,
            readyTimeoutMs,
          },
        },
        'ready',
        readyTimeoutMs + 15_000,
      );
      const memory = await child.ask({ type: 'snapshot' }, 'memory', 150_000);
      if (memory.breakdown.discord?.guilds !== guilds) {
        throw new Error(`the bot holds ${memory.breakdown.discord?.guilds ?? 'no'} guilds, not ${guilds}`);
      }
      const parts = breakDown ? await child.ask({ type: 'discord-heap' }, 'discord-heap', 150_000) : undefined;
      return { guilds, memory, readyMs: ready.readyAt - ready.processStartAt, parts };
    } finally {
      await child.stop();
    }
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const kb = (bytes: number) => formatNumber(bytes / 1024);

function logRun(label: string, run: Run): void {
  const caches = run.memory.breakdown.discord;
  log(
    `    ${label}: heap ${formatNumber(mb(run.memory.heapUsed))} MB, RSS ${formatNumber(mb(run.memory.rss))} MB, ready ${formatNumber(run.readyMs)} ms ` +
      `after start; discord.js keeps ${caches?.guilds ?? '?'} guilds, ${caches?.channels ?? '?'} channels, ` +
      `${caches?.roles ?? '?'} roles, ${caches?.members ?? '?'} members, ${caches?.users ?? '?'} users, ` +
      `${caches?.voiceStates ?? '?'} voice states`,
  );
}

/** Where the heap per guild goes, by part, and what is left beside the no-guild process. */
function logParts(parts: DiscordHeapParts, empty: Run): void {
  log(`    where the heap per guild goes (each part emptied in turn, ${parts.guilds} guilds):`);
  for (const { part, bytes } of parts.parts) log(`      ${part}: ${kb(bytes / parts.guilds)} KB`);
  log(
    `      left once every part is gone, beside the no-guild process: ` +
      `${kb((parts.after - empty.memory.heapUsed) / parts.guilds)} KB (strings and maps discord.js and V8 keep)`,
  );
}

export const guildsGroup: BenchGroup = {
  name: 'guilds',
  figures: [
    'guilds.heap_kb_per_guild',
    'guilds.heap_kb_per_guild_vs_limit',
    'guilds.heap_mb',
    'guilds.rss_mb',
    'guilds.ready_ms',
    'guilds.ready_added_ms',
    'guilds.ready_added_vs_limit',
  ],
  async run(figures) {
    checkGuildsLoad();
    log(
      `guilds: the gateway process with ${formatNumber(GUILDS)} guilds (${REALISTIC_GUILD.channels} channels, ` +
        `${REALISTIC_GUILD.roles} roles, overwrites, ${REALISTIC_GUILD.membersInVoice} members in voice each) over ` +
        `${SHARDS} shards in one process, max_concurrency ${MAX_CONCURRENCY}, against the same process with no ` +
        `guild; ${ROUNDS} rounds, the order rotating`,
    );
    const full: Run[] = [];
    const empty: Run[] = [];
    await withFeedBotRuntime(async (runtime) => {
      for (let round = 1; round <= ROUNDS; round += 1) {
        log(`  round ${round}:`);
        const order = round % 2 === 1 ? [0, GUILDS] : [GUILDS, 0];
        let withGuilds: Run | undefined;
        let without: Run | undefined;
        for (const guilds of order) {
          const run = await measureOnce(guilds, runtime, guilds > 0 && round === 1);
          logRun(guilds > 0 ? `${formatNumber(guilds)} guilds` : 'no guild', run);
          if (guilds > 0) withGuilds = run;
          else without = run;
        }
        if (!withGuilds || !without) throw new Error('a round measured only one process');
        full.push(withGuilds);
        empty.push(without);
        log(`    heap per guild: ${kb((withGuilds.memory.heapUsed - without.memory.heapUsed) / GUILDS)} KB`);
        if (withGuilds.parts) logParts(withGuilds.parts, without);
      }
    });
    // Memory must hold in every round: the worst round's; the ready times the median's.
    const perGuildKb = full.map((run, i) => (run.memory.heapUsed - (empty[i]?.memory.heapUsed ?? 0)) / GUILDS / 1024);
    const worstKb = Math.max(...perGuildKb);
    const readyMs = median(full.map((run) => run.readyMs));
    const addedMs = median(full.map((run, i) => run.readyMs - (empty[i]?.readyMs ?? 0)));
    log(
      `  heap per guild by round ${formatList(perGuildKb)} KB (limit ${HEAP_KB_PER_GUILD_LIMIT}); ready ` +
        `${formatList(full.map((run) => run.readyMs))} ms after start, of which Discord's identify pacing is ` +
        `${formatNumber(identifyPacingMs())} ms; the no-guild process: heap ${formatList(empty.map((run) => mb(run.memory.heapUsed)))} MB, ` +
        `RSS ${formatList(empty.map((run) => mb(run.memory.rss)))} MB, ready ${formatList(empty.map((run) => run.readyMs))} ms ` +
        `after start; what the guilds add to the ready time: ${formatList(full.map((run, i) => run.readyMs - (empty[i]?.readyMs ?? 0)))} ms ` +
        `(limit ${formatNumber(READY_ADDED_LIMIT_MS)} ms)`,
    );
    figures.add('guilds.heap_kb_per_guild', worstKb, 'KB');
    figures.add('guilds.heap_kb_per_guild_vs_limit', worstKb / HEAP_KB_PER_GUILD_LIMIT, 'x');
    figures.add('guilds.heap_mb', mb(Math.max(...full.map((run) => run.memory.heapUsed))), 'MB');
    figures.add('guilds.rss_mb', mb(Math.max(...full.map((run) => run.memory.rss))), 'MB');
    figures.add('guilds.ready_ms', readyMs, 'ms');
    figures.add('guilds.ready_added_ms', addedMs, 'ms');
    figures.add('guilds.ready_added_vs_limit', addedMs / READY_ADDED_LIMIT_MS, 'x');
  },
};
