import type { DroppedHeld } from './deliveries.js';

/** The delivery queue as the hourly sweep sees it: what is past its retention goes, in bounded slices. */
export interface DeliveryRetention {
  /** Forgets posted deliveries posted before `before` (their unique keys expire); returns how many. */
  sweepPosted(before: number): Promise<number>;
  /**
   * Drops the bodies of deliveries posted (or muted) before `before`: the replay window is over for them (the
   * record's writer keeps those it has not read); returns how many.
   */
  sweepBodies(before: number): Promise<number>;
  /**
   * Drops up to `limit` held entries held before `before` (their retention is over), oldest first, bodies and
   * all, in one statement (a sweep repeats it); returns how many went in each guild, by guild id.
   */
  dropHeld(before: number, limit: number): Promise<DroppedHeld[]>;
}
