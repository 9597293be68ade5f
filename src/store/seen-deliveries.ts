import { z } from 'zod';
import type { TypedCollection } from './typed-collection.js';

/** Delivery ids are remembered this long after their event was posted; the issue asks for at least 24 h. */
export const SEEN_TTL_MS = 25 * 60 * 60 * 1000;

export const SeenRecordSchema = z.object({ at: z.number().int() });

/** Delivery ids already posted, per hook, so a repeated delivery is answered 2xx and not posted twice. */
export class SeenDeliveries {
  constructor(
    private readonly records: TypedCollection<typeof SeenRecordSchema>,
    private readonly now: () => number = Date.now,
  ) {}

  async has(hookId: string, deliveryId: string): Promise<boolean> {
    return (await this.records.get(seenKey(hookId, deliveryId))) !== undefined;
  }

  async add(hookId: string, deliveryId: string): Promise<void> {
    await this.records.set(seenKey(hookId, deliveryId), { at: this.now() }, SEEN_TTL_MS);
  }

  /** Reads every record once, which makes keyv drop the expired ones (SQLite has no TTL of its own). */
  async sweepExpired(): Promise<void> {
    await this.records.entries();
  }
}

/** Delivery ids are the service's; scoping them by hook keeps two guilds' webhooks from colliding. */
export function seenKey(hookId: string, deliveryId: string): string {
  return `${hookId}:${deliveryId}`;
}
