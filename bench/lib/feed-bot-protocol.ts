import type { BacklogFill } from './backlog-fill.js';
import type { BacklogSeed } from './backlog-seed.js';
import type { DiscordHeapParts } from './discord-heap-parts.js';
import type { FeedBotOptions, ResumeOptions } from './feed-bot.js';
import type { MemoryBreakdown } from './memory-breakdown.js';

/** Messages between the feed benchmarks and the bot process (bench/lib/feed-bot-child.ts). */

export type FeedBotRequest =
  | { type: 'start'; options: FeedBotOptions }
  /** Start the bot on a store file an earlier process left, as a restart does: no hook or route is set. */
  | { type: 'resume'; options: ResumeOptions }
  /** Without a bot: create the store file with a hook, routes, posted rows and waiting entries (then exit). */
  | { type: 'seed'; seed: BacklogSeed }
  /** Accept deliveries straight through the running bot's store, as the intake would after verifying them. */
  | { type: 'fill'; fill: BacklogFill }
  /** The main thread's CPU time so far: nothing else is done, so nothing else is counted. */
  | { type: 'cpu' }
  /** Collect garbage and report memory now, whatever the outbox holds. */
  | { type: 'snapshot' }
  /** Wait until the outbox is empty, collect garbage, report memory. */
  | { type: 'measure' }
  /** How many of the guild's channels wait out a retry (the lanes Discord's outage reached). */
  | { type: 'lanes' }
  /** Drop discord.js's caches one part at a time, reading the heap after each (lib/discord-heap-parts.ts). */
  | { type: 'discord-heap' }
  | { type: 'stop' };

export interface FeedBotReady {
  type: 'ready';
  webhookUrl: string;
  /** The hooks of FeedBotOptions.moreGuilds, in their order. */
  moreWebhookUrls: string[];
  /** Wall-clock times (ms since the Unix epoch): the process's start, and the discord.js client ready. */
  processStartAt: number;
  readyAt: number;
}

/** Wall-clock times (ms since the Unix epoch, sub-millisecond) of a restart's steps, read in the bot process. */
export interface FeedBotResumed {
  type: 'resumed';
  webhookUrl: string;
  /** The process's own start (performance.timeOrigin). */
  processStartAt: number;
  /** The resume request began to run (after the modules loaded). */
  requestAt: number;
  /** startBot resolved: the store open, the intake listening, the Discord login done. */
  startBotAt: number;
  /** The discord.js client was ready (the feed starts then). */
  readyAt: number;
}

/** process.memoryUsage() after a full garbage collection, once the RSS settled, bytes. */
export interface FeedBotMemory {
  type: 'memory';
  /** Once V8 has returned what the collection freed (the RSS stopped falling); `rssAtGc` right after it. */
  rss: number;
  rssAtGc: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Linux only (/proc/self/status): anonymous memory (heaps, malloc) and file-backed pages (node's code), bytes. */
  rssAnon: number | undefined;
  rssFile: number | undefined;
  /** Where the RSS goes: V8's spaces, glibc's arenas, SQLite's page cache, discord.js's caches. */
  breakdown: MemoryBreakdown;
  /** MALLOC_ARENA_MAX as the process was started with (glibc reads it once, at start). */
  mallocArenaMax: string | undefined;
  /** Entries still in the outbox (0: everything posted and confirmed). */
  outbox: number;
  /** Warnings and errors the bot logged so far. */
  warnings: number;
  firstWarning: string | undefined;
}

export interface FeedBotCpu {
  type: 'cpu';
  /** The main thread's utime + stime (Linux, 10 ms ticks); undefined elsewhere. */
  mainThreadMs: number | undefined;
  /** Every thread of the process (process.cpuUsage()): GC helpers and libuv's pool too. */
  processMs: number;
}

export interface FeedBotFilled {
  type: 'filled';
  /** Open entries (waiting and held) after the fill. */
  open: number;
  ms: number;
}

export interface FeedBotSeeded {
  type: 'seeded';
  /** Creating the posted rows (raw SQL), and accepting the waiting entries (the store's accept), ms. */
  seenMs: number;
  waitingMs: number;
  /** The store file and its write-ahead log afterwards, bytes. */
  fileBytes: number;
}

export interface FeedBotLanes {
  type: 'lanes';
  retrying: number;
  waiting: number;
}

export interface FeedBotStopped {
  type: 'stopped';
}

export interface FeedBotFailed {
  type: 'failed';
  message: string;
}

export type FeedBotReply =
  | FeedBotReady
  | FeedBotResumed
  | FeedBotMemory
  | FeedBotCpu
  | FeedBotFilled
  | FeedBotSeeded
  | FeedBotLanes
  | DiscordHeapParts
  | FeedBotStopped
  | FeedBotFailed;
