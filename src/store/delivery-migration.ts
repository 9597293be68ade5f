import type { HeldEntry, PostedDelivery, QueuedEntry } from './deliveries.js';

/** The delivery queue as migrate-store sees it: everything it holds, read out and written into another store. */
export interface DeliveryMigration {
  /**
   * Posted and muted deliveries still remembered, by seq: up to `limit` after `afterSeq` (migrate-store pages
   * through them with the last seq it got).
   */
  listPosted(page: { afterSeq: number; limit: number }): Promise<Array<PostedDelivery & { seq: number }>>;
  /**
   * Remembers deliveries another store posted (migrate-store), as posted here: their retries stay duplicates and
   * muted ones stay counted. One already known is left as it is. Returns how many were new.
   */
  rememberPosted(deliveries: readonly PostedDelivery[]): Promise<number>;
  /** Waiting and held entries (migrate-store, tests and diagnostics; O(backlog)). */
  listOpen(): Promise<Array<QueuedEntry | HeldEntry>>;
}
