import type { FeedBotOptions } from './feed-bot.js';

/** Messages between bench/feed-memory.ts and the bot process (bench/lib/feed-bot-child.ts). */

export type FeedBotRequest =
  | { type: 'start'; options: FeedBotOptions }
  /** Wait until the outbox is empty, collect garbage, report memory. */
  | { type: 'measure' }
  | { type: 'stop' };

export interface FeedBotReady {
  type: 'ready';
  webhookUrl: string;
}

/** process.memoryUsage() after a full garbage collection, bytes. */
export interface FeedBotMemory {
  type: 'memory';
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  /** Linux only (/proc/self/status): anonymous memory (heaps, malloc) and file-backed pages (node's code), bytes. */
  rssAnon: number | undefined;
  rssFile: number | undefined;
  /** Entries still in the outbox (0: everything posted and confirmed). */
  outbox: number;
  /** Warnings and errors the bot logged so far. */
  warnings: number;
  firstWarning: string | undefined;
}

export interface FeedBotStopped {
  type: 'stopped';
}

export interface FeedBotFailed {
  type: 'failed';
  message: string;
}

export type FeedBotReply = FeedBotReady | FeedBotMemory | FeedBotStopped | FeedBotFailed;
