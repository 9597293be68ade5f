import type { BrokenChannel, ChannelWithWork, Lease, QueuedEntry } from './deliveries.js';

/**
 * The delivery queue as the feed's lanes see it: one lane per channel takes its next message, writes it down
 * before the send, and confirms, releases or holds it after.
 */
export interface LaneQueue {
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
   * LeaseLostError (deliveries.ts) when `lease` is no longer the partition's (here and in ack and release).
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
  noteFailure(channelId: string, guildId: string, retryAt: number): Promise<number>;
  /**
   * Discord refused this message on its own: its entries are held (never lost), the rest of the lane goes on.
   * Like the writes above, refused with LeaseLostError once `lease` is no longer the partition's: the next owner
   * sends the message again, and decides about it itself.
   */
  holdRefused(seqs: readonly number[], detail: string, at: number, lease?: Lease): Promise<void>;
  /**
   * Discord refuses the channel: it is marked broken and every entry of its lane held, in one transaction
   * (refused as a whole once `lease` is no longer the partition's).
   */
  holdBrokenChannel(channel: BrokenChannel, lease?: Lease): Promise<void>;
  /** The stored state of a channel's retries, for a lane starting after a restart. */
  retryAtOf(channelId: string): Promise<number | undefined>;
}
