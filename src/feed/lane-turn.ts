import type { Clock } from '../base/clock.js';
import { snowflakeTime } from '../discord/snowflake.js';
import type { Outgoing } from './outgoing-message.js';
import type { SendPacer } from './send-pacer.js';

/**
 * One lane's place in the {@link SendPacer}'s queue: since when its channel has waited for a post (a message written
 * down by the last owner, from when it was written down), kept across a resend the last owner had already posted.
 */
export class LaneTurn {
  /** When this process started the lane (a post older than that, answering a resend, was the last owner's). */
  private readonly startedAt: number;
  private waitingSince: number | undefined;
  /** Aborted when the lane stops: a send still waiting for its turn is withdrawn, not sent. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly pacer: SendPacer | undefined,
    private readonly clock: Clock,
  ) {
    this.startedAt = clock();
  }

  /** Resolves true when `outgoing` may be sent; false once the lane stopped (the message stays written down). */
  async take(outgoing: Outgoing): Promise<boolean> {
    if (!this.pacer) return true;
    this.waitingSince ??= outgoing.kind === 'post' ? outgoing.writtenAt : this.clock();
    return this.pacer.take(this.waitingSince, this.stopping.signal);
  }

  /**
   * A send went. A resend answered with a post older than this lane was posted by the channel's last owner (its
   * send was in flight when it died): that was not the channel's turn, so its next message keeps its place.
   */
  sent(resend: boolean, messageId: string | void): void {
    const madeAt = messageId ? snowflakeTime(messageId) : undefined;
    if (!resend || madeAt === undefined || madeAt >= this.startedAt) this.waitingSince = undefined;
  }

  /** The lane stops: a send waiting for its turn is withdrawn. */
  withdraw(): void {
    this.stopping.abort();
  }
}
