import { z } from 'zod';

import type { TypedCollection } from './typed-collection.js';

/** Delivery ids are remembered this long after their event was posted; the issue asks for at least 24 h. */
export const SEEN_TTL_MS = 25 * 60 * 60 * 1000;

export const SeenRecordSchema = z.object({ at: z.number().int() });

/**
 * Delivery ids already posted, per hook, so a repeated delivery is answered 2xx and not posted twice.
 * The store keeps them across restarts; an index in memory (loaded once at start, like the outbox's) answers
 * the intake's "seen before?" without a query on every delivery.
 */
export class SeenDeliveries {
  /** Key -> when it may be forgotten (ms since the epoch). */
  private readonly expiries = new Map<string, number>();

  private constructor(
    private readonly records: TypedCollection<typeof SeenRecordSchema>,
    private readonly now: () => number,
  ) {}

  static async load(
    records: TypedCollection<typeof SeenRecordSchema>,
    now: () => number = Date.now,
  ): Promise<SeenDeliveries> {
    const seen = new SeenDeliveries(records, now);
    for (const [key, record] of await records.entries()) seen.expiries.set(key, record.at + SEEN_TTL_MS);
    return seen;
  }

  has(hookId: string, deliveryId: string): boolean {
    const expiry = this.expiries.get(seenKey(hookId, deliveryId));
    return expiry !== undefined && expiry > this.now();
  }

  /** Resolves once the store has the id. */
  async add(hookId: string, deliveryId: string): Promise<void> {
    const key = seenKey(hookId, deliveryId);
    const at = this.now();
    await this.records.set(key, { at }, SEEN_TTL_MS);
    this.expiries.set(key, at + SEEN_TTL_MS);
  }

  /** Forgets expired ids, here and in the store (reading them makes keyv drop them: SQLite has no TTL). */
  async sweepExpired(): Promise<void> {
    const now = this.now();
    for (const [key, expiry] of this.expiries) if (expiry <= now) this.expiries.delete(key);
    await this.records.entries();
  }
}

/** Delivery ids are the service's; scoping them by hook keeps two guilds' webhooks from colliding. */
export function seenKey(hookId: string, deliveryId: string): string {
  return `${hookId}:${deliveryId}`;
}
