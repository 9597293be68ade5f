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
  claimNonce: string | null;
}

/** Why an entry is kept aside instead of waiting in a lane. */
export type ParkKind =
  /** No route names a channel for its event (no /feed set, no /feed default). */
  | 'unrouted'
  /** Discord refuses its channel (403/404): the channel is marked broken. */
  | 'broken'
  /** Discord refused the message carrying this entry alone (another 4xx). */
  | 'refused';

/** An entry kept aside, with why: /status counts them, and they are listed, never lost. */
export interface ParkedEntry extends NewDelivery {
  seq: number;
  /** The channel it was routed to when it was parked; null when unrouted. */
  channelId: string | null;
  kind: ParkKind;
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

/** A channel Discord refused: its entries are parked until an admin changes the guild's routes. */
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

/** A channel whose lane has work; `retryAt` is set while its last sends failed and it waits (a stored backoff). */
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

export interface ChannelWithWork {
  channelId: string;
  guildId: string;
  retryAt?: number;
}

/** What /status shows of one guild's feed, all read from the store. */
export interface GuildFeedStatus {
  waiting: number;
  /** Event name -> entries parked because no channel is set for it. */
  unrouted: Record<string, number>;
  /** Event name -> entries muted by an `off` rule (stored, not posted) in the last 24 h. */
  muted: Record<string, number>;
  /** Entries parked because Discord refuses their channel, or refused their message. */
  parkedBroken: number;
  parkedRefused: number;
  broken: BrokenChannel[];
  retrying: RetryingChannel[];
}

/**
 * The durable queue between the intake and the feed, ordered and deduplicated by the store (DESIGN.md, State).
 * A delivery is accepted once per (hook, delivery id) by a unique key that lasts from acceptance until at least
 * 24 h after it was posted; it is routed by the guild's settings in the same transaction; it then waits in its
 * channel's lane, is written down with a nonce before a send, and is marked posted when Discord confirmed it.
 * Nothing here is held in process memory.
 */
export interface DeliveryQueue {
  /**
   * Stores the delivery, or answers `duplicate` for a (hook, delivery id) the store already has, or (only with
   * `requireHook`) `unknown-hook` for a hook the store does not have.
   */
  accept(delivery: NewDelivery, options?: AcceptOptions): Promise<AcceptOutcome>;
  /** Channels with waiting entries (what the feed starts with), and when each may be tried again if it failed. */
  channelsWithWork(): Promise<ChannelWithWork[]>;
  /**
   * The channel's next message to send: the entries of a message written down and not confirmed (same nonce,
   * all of them), else up to `max` oldest waiting entries, oldest first.
   */
  nextFor(channelId: string, max: number): Promise<QueuedEntry[]>;
  /**
   * Writes the message down before it is sent: its entries, and `message` (what the lane will send, opaque here)
   * in the same transaction. False when one of the entries left the lane meanwhile. Throws
   * {@link LeaseLostError} when `lease` is no longer the partition's (here and in ack and release).
   */
  writeDown(
    channelId: string,
    nonce: string,
    seqs: readonly number[],
    message?: string,
    lease?: Lease,
  ): Promise<boolean>;
  /** What was written down with the channel's message `nonce`, while it is not confirmed; a resend sends it. */
  writtenMessage(channelId: string, nonce: string): Promise<string | undefined>;
  /** Discord confirmed the message: its entries are posted, and the channel's failures are forgotten. */
  ack(channelId: string, nonce: string, postedAt: number, lease?: Lease): Promise<void>;
  /** Forgets a written-down message that Discord did not post (it refused it): its entries wait as before. */
  release(channelId: string, nonce: string, lease?: Lease): Promise<void>;
  /** A send failed in a way worth retrying: stores the failure count and when to try again. */
  recordFailure(channelId: string, guildId: string, retryAt: number): Promise<number>;
  /** Discord refused this message on its own: its entries are parked (never lost), the rest of the lane goes on. */
  parkRefused(seqs: readonly number[], detail: string, at: number): Promise<void>;
  /** Discord refuses the channel: it is marked broken and every entry of its lane parked, in one transaction. */
  parkBrokenChannel(channel: BrokenChannel): Promise<void>;
  /** The stored state of a channel's retries, for a lane starting after a restart. */
  retryAtOf(channelId: string): Promise<number | undefined>;
  statusOf(guildId: string): Promise<GuildFeedStatus>;
  /** The guild's parked entries, oldest first. */
  listParked(guildId: string, page: { offset: number; limit: number }): Promise<ParkedEntry[]>;
  /** One parked entry of the guild, or undefined when it is not parked (any more). */
  parkedOne(guildId: string, seq: number): Promise<ParkedEntry | undefined>;
  /**
   * Sends parked entries again (/feed held): the entry waits in `channelId`'s lane with its own seq, so it goes
   * before what arrived after it. For an entry parked with its broken channel, the channel is tried again: its
   * broken state is cleared and all its entries parked with it wait again, in order. False when the entry is not
   * parked any more (someone acted first).
   */
  requeueParked(guildId: string, seq: number, channelId: string, at: number): Promise<boolean>;
  /**
   * Gives up on a parked entry (/feed held, Discard): it leaves the open set as if posted, body dropped, so the
   * service's retry of it stays a duplicate for 24 h more. False when it is not parked any more.
   */
  discardParked(guildId: string, seq: number, at: number): Promise<boolean>;
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
  /** Forgets posted deliveries posted before `before` (their unique keys expire); returns how many. */
  sweepPosted(before: number): Promise<number>;
  /**
   * Drops up to `limit` parked entries parked before `before` (their retention is over), oldest first, bodies and
   * all, in one statement (a sweep repeats it); returns how many went in each guild, by guild id.
   */
  dropParked(before: number, limit: number): Promise<DroppedHeld[]>;
  /** Where a delivery stands, for tests and diagnostics. */
  stateOf(hookId: string, deliveryId: string): Promise<DeliveryState | undefined>;
  /** Waiting and parked entries (tests and diagnostics; O(backlog)). */
  listOpen(): Promise<Array<QueuedEntry | ParkedEntry>>;
  countOpen(): Promise<number>;
}
