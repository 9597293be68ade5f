import type { AcceptOptions, AcceptOutcome, DeliveryState, NewDelivery } from './deliveries.js';

/** The delivery queue as the intake sees it: deliveries go in, deduplicated and routed; nothing comes out. */
export interface DeliveryIntake {
  /**
   * Stores the delivery, or answers `duplicate` for a (hook, delivery id) the store already has, or (only with
   * `requireHook`) `unknown-hook` for a hook the store does not have.
   */
  accept(delivery: NewDelivery, options?: AcceptOptions): Promise<AcceptOutcome>;
  /** Where a delivery stands, for tests and diagnostics. */
  stateOf(hookId: string, deliveryId: string): Promise<DeliveryState | undefined>;
  /** Waiting and held entries: what the intake let in and the feed has not posted yet (/healthz's outbox). */
  countOpen(): Promise<number>;
  /** The entries of each state now (the metrics endpoint's gauge): read from indexes, no scan of the table. */
  countByState(): Promise<EntryCounts>;
  /**
   * When the first waiting entry in the store's order was received (ms since the epoch), undefined when none waits:
   * the metrics' age of the oldest waiting delivery. Read from the waiting entries' index, as their count is.
   */
  oldestWaitingAt(): Promise<number | undefined>;
}

/** Entries by state: waiting for their channel, held until an admin acts, muted (stored, never posted). */
export interface EntryCounts {
  waiting: number;
  held: number;
  muted: number;
}
