import type { BareNodeRss } from './bare-node-rss.js';
import type { FeedBotMemory } from './feed-bot-protocol.js';
import { log } from './report.js';
import { formatNumber } from './stats.js';

// How bench/feed-memory.ts prints a round: the memory at each point, and where it goes.

const MB = 1024 * 1024;
export const mb = (bytes: number) => bytes / MB;

export interface MemoryRun {
  start: FeedBotMemory;
  half: FeedBotMemory;
  full: FeedBotMemory;
  /** Wall time of each half: first delivery sent -> last embed at the fake, ms. */
  halfMs: [number, number];
  /** A Node process that loads nothing, same flags, read just before the bot process started. */
  bare: BareNodeRss | undefined;
}

function describeMemory(memory: FeedBotMemory): string {
  const split =
    memory.rssAnon === undefined || memory.rssFile === undefined
      ? ''
      : `anon ${mb(memory.rssAnon).toFixed(1)} + file ${mb(memory.rssFile).toFixed(1)}; `;
  return (
    `rss ${mb(memory.rss).toFixed(1)} MB (${mb(memory.rssAtGc).toFixed(1)} right after GC; ${split}heap used ${mb(memory.heapUsed).toFixed(1)} of ${mb(memory.heapTotal).toFixed(1)}, ` +
    `external ${mb(memory.external).toFixed(1)}, array buffers ${mb(memory.arrayBuffers).toFixed(1)})`
  );
}

const count = (n: number, what: string) => `${n} ${what}`;

/** Where the RSS goes (lib/memory-breakdown.ts): one line, every figure with its unit. */
function describeBreakdown(memory: FeedBotMemory): string {
  const b = memory.breakdown;
  const parts = [
    `V8 heap used ${mb(b.heapUsed).toFixed(1)} MB of ${mb(b.heapResident).toFixed(1)} MB resident (young generation ${mb(b.newSpaceResident).toFixed(1)} MB; ` +
      `${b.spaces.map((space) => `${space.name} ${mb(space.used).toFixed(1)}/${mb(space.resident).toFixed(1)}`).join(', ')})`,
  ];
  if (b.mallocMain !== undefined && b.mallocThreads !== undefined && b.otherAnon !== undefined) {
    parts.push(
      `malloc main arena ${mb(b.mallocMain).toFixed(1)} MB + ${count(b.threadArenas ?? 0, 'thread arenas')} ${mb(b.mallocThreads).toFixed(1)} MB` +
        ` (MALLOC_ARENA_MAX ${memory.mallocArenaMax ?? 'unset'})`,
      `other anon ${mb(b.otherAnon).toFixed(1)} MB (V8 heap, stacks, mmap'd blocks)`,
    );
  }
  if (memory.rssFile !== undefined) parts.push(`file-backed ${mb(memory.rssFile).toFixed(1)} MB (code)`);
  parts.push(
    `SQLite page cache at most ${b.sqliteCacheBound === undefined ? '?' : mb(b.sqliteCacheBound).toFixed(1)} MB (cache_size ${mb(b.sqliteCacheCap).toFixed(1)} MB)`,
    `external ${mb(memory.external).toFixed(1)} MB, array buffers ${mb(memory.arrayBuffers).toFixed(1)} MB`,
  );
  const d = b.discord;
  if (d) {
    parts.push(
      `discord.js caches ${count(d.guilds, 'guilds')}, ${count(d.channels, 'channels')}, ${count(d.roles, 'roles')}, ` +
        `${count(d.members, 'members')}, ${count(d.users, 'users')}, ${count(d.messages, 'messages')}, ${count(d.emojis, 'emojis')}, ` +
        `${count(d.stickers, 'stickers')}, ${count(d.voiceStates, 'voice states')}, ${count(d.presences, 'presences')}`,
    );
  }
  return parts.join('; ');
}

function describeBare(bare: BareNodeRss | undefined): string {
  if (!bare) return 'a bare Node process: not read (no /proc)';
  return `a bare Node process: rss ${mb(bare.rss).toFixed(1)} MB (anon ${mb(bare.rssAnon).toFixed(1)} + file ${mb(bare.rssFile).toFixed(1)})`;
}

/** Prints one round: its memory at start, after `half` and after `events` deliveries, and where it goes. */
export function logRound(round: number, run: MemoryRun, half: number, events: number): void {
  const posted = (ms: number) => `posted in ${(ms / 1000).toFixed(1)} s (${formatNumber(half / (ms / 1000))} events/s)`;
  log(`  round ${round} at start:     ${describeMemory(run.start)}; ${describeBare(run.bare)}`);
  log(`  round ${round} after ${half}:  ${describeMemory(run.half)}; ${posted(run.halfMs[0])}`);
  log(`  round ${round} after ${events}: ${describeMemory(run.full)}; ${posted(run.halfMs[1])}`);
  log(`    at start:     ${describeBreakdown(run.start)}`);
  log(`    after ${events}: ${describeBreakdown(run.full)}`);
}
