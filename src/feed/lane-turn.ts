import type { Clock } from '../base/clock.js';
import type { Outgoing } from './outgoing-message.js';
import type { SendPacer } from './send-pacer.js';

/**
 * One lane's place in the {@link SendPacer}'s queue: its channel has waited for a post since the oldest entry of
 * the message arrived. Counted from the entries, not from when this process wrote the message down, so a channel
 * a process took over after a failover (its entries waited through the hand-over, often with nothing written
 * down) goes before the channels whose last post was moments ago, and a resend answered with the post the last
 * owner made leaves the next message its place: its entries are as old as they were.
 */
export class LaneTurn {
  /** Aborted when the lane stops: a send still waiting for its turn is withdrawn, not sent. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly pacer: SendPacer | undefined,
    private readonly clock: Clock,
  ) {}

  /** Resolves true when `outgoing` may be sent; false once the lane stopped (the message stays written down). */
  take(outgoing: Outgoing): Promise<boolean> {
    if (!this.pacer) return Promise.resolve(true);
    return this.pacer.take(this.waitingSince(outgoing), this.stopping.signal);
  }

  /** The lane stops: a send waiting for its turn is withdrawn. */
  withdraw(): void {
    this.stopping.abort();
  }

  /**
   * When the message's oldest entry arrived. Never later than now: an intake on another host may stamp by a clock
   * ahead of this one's, and its entries must not queue behind everything this process has.
   */
  private waitingSince(outgoing: Outgoing): number {
    let since = this.clock();
    for (const entry of outgoing.entries) since = Math.min(since, entry.receivedAt);
    return since;
  }
}
