import type { Clock } from '../base/clock.js';
import { snowflakeTime } from '../discord/snowflake.js';
import type { Outgoing } from './outgoing-message.js';
import type { SendPacer } from './send-pacer.js';

/**
 * How far ahead a channel back from idle is counted: its first message goes before every channel that posted within
 * this long before that message's entries arrived. Under more traffic than Discord's rate carries, a channel with one
 * new case would otherwise wait for a whole cycle of the busy ones (100 busy channels at 50 posts a second: 2 s),
 * while a busy channel waiting a moment longer only gets more in its next message. No channel waits more than this
 * long on a newcomer's account, and a channel is a newcomer once per idle spell (its lane is dropped when idle).
 */
const BACK_FROM_IDLE_AHEAD_MS = 5_000;

/**
 * One lane's place in the {@link SendPacer}'s queue: its channel has waited for a post since its last post was made
 * or since the oldest entry of the message arrived, whichever is later.
 *
 * - Under more traffic than the rate allows, each channel with work gets a post in turn: a channel whose backlog is
 *   old but which just posted waits behind the ones that did not.
 * - A channel back from idle (a new lane: an idle one is dropped) goes first with its first message, so a quiet
 *   channel's case is not posted after a cycle of every busy channel ({@link BACK_FROM_IDLE_AHEAD_MS}), and it may
 *   take the send a second the pacer keeps for one, so it goes at once (send-pacer.ts).
 * - A channel taken over after a failover has no post made by this process: its entries waited through the
 *   hand-over, and it goes before the channels this process posted to a moment ago (counted from when its message
 *   was written down, as the pacer once counted, it queued behind all of those).
 * - A resend answered with the post the last owner made counts that post's time (its id tells it), so the next
 *   message keeps its place.
 */
export class LaneTurn {
  /** When the channel's last post (or card edit) this lane knows of was made; undefined before its first. */
  private lastPostAt: number | undefined;
  /** Aborted when the lane stops: a send still waiting for its turn is withdrawn, not sent. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly pacer: SendPacer | undefined,
    private readonly clock: Clock,
  ) {}

  /** Resolves true when `outgoing` may be sent; false once the lane stopped (the message stays written down). */
  take(outgoing: Outgoing): Promise<boolean> {
    if (!this.pacer) return Promise.resolve(true);
    return this.pacer.take(this.waitingSince(outgoing), this.stopping.signal, this.lastPostAt === undefined);
  }

  /** A send went: a post's id tells when Discord made it (a resend's may be the last owner's); else it is now. */
  sent(messageId: string | void): void {
    const now = this.clock();
    const madeAt = messageId ? snowflakeTime(messageId) : undefined;
    this.lastPostAt = Math.min(now, madeAt ?? now);
  }

  /** The lane stops: a send waiting for its turn is withdrawn. */
  withdraw(): void {
    this.stopping.abort();
  }

  /**
   * Never later than now: an intake on another host may stamp by a clock ahead of this one's, and its entries must
   * not queue behind everything this process has.
   */
  private waitingSince(outgoing: Outgoing): number {
    let arrived = Infinity;
    for (const entry of outgoing.entries) arrived = Math.min(arrived, entry.receivedAt);
    const now = this.clock();
    if (this.lastPostAt === undefined) return Math.min(now, arrived) - BACK_FROM_IDLE_AHEAD_MS;
    return Math.min(now, Math.max(arrived, this.lastPostAt));
  }
}
