import { existsSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';

import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { fillBacklog, type BacklogFill } from './backlog-fill.js';
import { makeDeliveryBody, makeDeliveryId } from './delivery.js';

/**
 * The store file a restart of backlog.restart_first_post_ms meets: the hook and the routes, `seen` deliveries
 * posted during the last 24 h (their ids kept for deduplication, bodies dropped) and the backlog still waiting.
 * Built without a bot, so no lane has tried (and failed) yet: the restart finds no retry time to wait out.
 */
export interface BacklogSeed {
  /** The SQLite file: `storeFileOf(storeDir)`. */
  storeFile: string;
  hookId: string;
  guildId: string;
  secret: string;
  /** Event name -> channel id. */
  routes: Record<string, string>;
  /** Posted rows to insert (raw SQL, before any bot opens the file). */
  seen: number;
  /**
   * How many of those, the latest, still keep their body: the replay window's (REPLAY_WINDOW_HOURS, 24 h) at the
   * day's deliveries (100,000 a day: backlog-sizes.ts).
   */
  withBody: number;
  /** The waiting entries, accepted through the store. */
  waiting: BacklogFill;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Rows per transaction of the raw insert: the write-ahead log stays small between checkpoints. */
const SEEN_SLICE = 50_000;

/** Builds the file; returns how long its two parts took and its size. */
export async function seedBacklogStore(
  seed: BacklogSeed,
): Promise<{ seenMs: number; waitingMs: number; fileBytes: number }> {
  const url = `sqlite://${seed.storeFile}`;
  // The schema, the hook and the routes, as /webhook create and /feed set leave them.
  let store = await openStore(url, STORE_MODULES);
  try {
    await store.hooks.save({
      hookId: seed.hookId,
      guildId: seed.guildId,
      webhookId: 'wh_backlog_bench',
      secret: seed.secret,
      events: ['all'],
      createdAt: Date.now(),
    });
    await store.guilds.update(seed.guildId, (settings) => ({ ...settings, routes: { ...seed.routes }, mentions: {} }));
  } finally {
    await store.close();
  }

  let started = performance.now();
  insertSeenIds(seed);
  const seenMs = performance.now() - started;

  started = performance.now();
  store = await openStore(url, STORE_MODULES);
  try {
    await fillBacklog(store.deliveries, seed, seed.waiting);
  } finally {
    await store.close();
  }
  const waitingMs = performance.now() - started;
  return { seenMs, waitingMs, fileBytes: sizeOf(seed.storeFile) + sizeOf(`${seed.storeFile}-wal`) };
}

/**
 * `seen` posted rows through a connection of its own, as the store leaves a delivery once Discord confirmed it
 * (state 'posted', posted within the last 24 h, so no sweep may remove it yet). The latest `withBody` keep their
 * 1 KB body, as the replay window keeps it for /feed replay; the rest had it dropped. Their seqs come before the
 * backlog's, as older deliveries' do.
 */
function insertSeenIds(seed: BacklogSeed): void {
  const events = Object.keys(seed.routes).filter((event) => event.startsWith('backlog.'));
  const db = new Database(seed.storeFile);
  try {
    const insert = db.prepare(`
      INSERT INTO delivery (hook_id, delivery_id, guild_id, event, received_at, raw_body, state, channel_id, posted_at)
      VALUES (?, ?, ?, ?, ?, ?, 'posted', ?, ?)`);
    const firstWithBody = seed.seen - Math.min(seed.withBody, seed.seen);
    const insertSlice = db.transaction((from: number, to: number) => {
      const oldest = Date.now() - DAY_MS;
      for (let n = from; n < to; n += 1) {
        const event = events[n % events.length] ?? 'backlog.0';
        const receivedAt = oldest + Math.floor((n / seed.seen) * DAY_MS);
        const body = n >= firstWithBody ? makeDeliveryBody(makeDeliveryId('seen0000', n)) : null;
        const channelId = seed.routes[event] ?? null;
        insert.run(seed.hookId, `seen-${n}`, seed.guildId, event, receivedAt, body, channelId, receivedAt);
      }
    });
    for (let from = 0; from < seed.seen; from += SEEN_SLICE) insertSlice(from, Math.min(seed.seen, from + SEEN_SLICE));
  } finally {
    db.close();
  }
}

function sizeOf(file: string): number {
  return existsSync(file) ? statSync(file).size : 0;
}
