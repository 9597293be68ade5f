import type { GuildFeedStatus, HeldEntry } from './deliveries.js';

/** The delivery queue as a guild's admins see it: its counts, and the entries held aside for them to act on. */
export interface HeldEntries {
  /** What /status shows of the guild's feed. */
  statusOf(guildId: string): Promise<GuildFeedStatus>;
  /** The guild's held entries, oldest first. */
  listHeld(guildId: string, page: { offset: number; limit: number }): Promise<HeldEntry[]>;
  /** One held entry of the guild, or undefined when it is not held (any more). */
  heldOne(guildId: string, seq: number): Promise<HeldEntry | undefined>;
  /**
   * Sends held entries again (/feed held): the entry waits in `channelId`'s lane with its own seq, so it goes
   * before what arrived after it. For an entry held with its broken channel, the channel is tried again: its
   * broken state is cleared and all its entries held with it wait again, in order. False when the entry is not
   * held any more (someone acted first).
   */
  requeueHeld(guildId: string, seq: number, channelId: string, at: number): Promise<boolean>;
  /**
   * Gives up on a held entry (/feed held, Discard): it leaves the open set as if posted, body dropped, so the
   * service's retry of it stays a duplicate for 24 h more. False when it is not held any more.
   */
  discardHeld(guildId: string, seq: number, at: number): Promise<boolean>;
}
