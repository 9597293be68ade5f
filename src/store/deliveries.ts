/** A verified delivery, as the intake hands it to the store. */
export interface NewDelivery {
  hookId: string;
  guildId: string;
  /**
   * The service's delivery id. The store keeps it as its dedupe key (dedupe-key.ts): the id itself, or for an id
   * over 200 bytes its digest, which is then what an entry read back carries (the body keeps the id as sent).
   */
  deliveryId: string;
  event: string;
  /** The game server it names (`server`), and a case's type: what routing rules may name besides the event. */
  server?: string;
  caseType?: string;
  /** The body exactly as signed: nothing the service sent is lost, whatever our schemas make of it. */
  rawBody: string;
  receivedAt: number;
}

/** `unknown-hook`: asked with {@link AcceptOptions.requireHook}, and the delivery's hook is not stored (any more). */
export type AcceptOutcome = 'accepted' | 'duplicate' | 'unknown-hook';

export interface AcceptOptions {
  /**
   * Store the delivery only if its hook is stored when the delivery is, in the same transaction: the intake's
   * check that a copy of a removed hook, cached by any process, never lets a delivery in after the removal.
   */
  requireHook?: boolean;
}

/** A delivery waiting in its channel's lane. */
export interface QueuedEntry extends NewDelivery {
  /** Order assigned by the store when it accepted the delivery (commit order). */
  seq: number;
  channelId: string;
  /**
   * The nonce of the message this entry was written down for before a send; null while it is in none. A
   * message written down and not confirmed is sent again as it was, under this nonce (Discord's enforce_nonce
   * then returns the first post instead of posting twice).
   */
  writtenNonce: string | null;
}

/** Why an entry is kept aside instead of waiting in a lane. */
export type HeldKind =
  /** No route names a channel for its event (no /feed set, no /feed default). */
  | 'unrouted'
  /** Discord refuses its channel (403/404): the channel is marked broken. */
  | 'broken'
  /** Discord refused the message carrying this entry alone (another 4xx). */
  | 'refused';

/** An entry kept aside, with why: /status counts them, and they are listed, never lost. */
export interface HeldEntry extends NewDelivery {
  seq: number;
  /** The channel it was routed to when it was held; null when unrouted. */
  channelId: string | null;
  kind: HeldKind;
  /** What Discord said (broken, refused); empty for unrouted. */
  detail: string;
  parkedAt: number;
}

/**
 * A delivery the store remembers as posted (or muted by an `off` rule), without its body: its unique key is what
 * keeps the service's retries of it duplicates until the sweep forgets it.
 */
export interface PostedDelivery extends Omit<NewDelivery, 'rawBody'> {
  postedAt: number;
  /** Stored as posted because an `off` rule applied (counted as muted in /status), not sent to Discord. */
  muted: boolean;
}

/** Where a delivery stands in the store (tests and diagnostics). */
export type DeliveryState = 'waiting' | 'parked' | 'posted';

/** Held entries one retention sweep dropped in one guild. */
export interface DroppedHeld {
  guildId: string;
  count: number;
}

/** A channel Discord refused: its entries are held until an admin changes the guild's routes. */
export interface BrokenChannel {
  channelId: string;
  guildId: string;
  status: number;
  reason: string;
  since: number;
}

/** A channel whose last sends failed and that waits before the next try. */
export interface RetryingChannel {
  channelId: string;
  guildId: string;
  failures: number;
  nextTryAt: number;
}

/**
 * The feed process's lease on the partition of a lane's guild (src/store/coordination.ts): the lease's epoch grows
 * each time the partition changes hands. An engine shared by several processes refuses a write from an older
 * epoch, so a process that lost the partition (paused, cut off) cannot write down or confirm a message after
 * another took it over. With one process (SQLite, whose file lock admits no other) the epoch is not checked.
 */
export interface Lease {
  partition: number;
  epoch: number;
}

/** A write refused because the partition is another process's now (or this one's lease has run out). */
export class LeaseLostError extends Error {
  constructor(partition: number) {
    super(`partition ${partition} is no longer this process's`);
    this.name = 'LeaseLostError';
  }
}

/** A channel whose lane has work; `retryAt` is set while its last sends failed and it waits (a stored backoff). */
export interface ChannelWithWork {
  channelId: string;
  guildId: string;
  retryAt?: number;
}

/** What /status shows of one guild's feed, all read from the store. */
export interface GuildFeedStatus {
  waiting: number;
  /** Event name -> entries held because no channel is set for it. */
  unrouted: Record<string, number>;
  /** Event name -> entries muted by an `off` rule (stored, not posted) in the last 24 h. */
  muted: Record<string, number>;
  /** Entries held because Discord refuses their channel, or refused their message. */
  heldBroken: number;
  heldRefused: number;
  broken: BrokenChannel[];
  retrying: RetryingChannel[];
}
