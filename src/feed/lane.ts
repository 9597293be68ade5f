import { SendError } from '../discord/posting/send-failure.js';
import { MAX_EMBEDS_PER_MESSAGE } from '../embeds/limits.js';
import { partitionOf } from '../store/coordination.js';
import { LeaseLostError, type Lease } from '../store/deliveries.js';
import { BurstHold } from './batch-window.js';
import type { RenderedEntry } from './card-plan.js';
import { findEarlierPost } from './earlier-post.js';
import type { LaneDeps } from './lane-deps.js';
import { failureInLane, LaneFailures, type AfterFailure } from './lane-failures.js';
import { LaneTurn } from './lane-turn.js';
import { nonceOf, OutgoingMessages, writtenFormOf, type Outgoing } from './outgoing-message.js';

/**
 * One channel's lane: posts the channel's waiting entries in store order, consecutive ones batched into one
 * message, one message in flight at a time. The store holds everything that matters (entries, the message
 * written down before a send, failures, when to retry, broken channels); the lane holds only its timers and
 * which refused entries to send one by one. It runs only when poked (new work, its timer): a lane never looks
 * at another channel's backlog, and an idle lane is dropped, as is one that stopped (the worker makes a new one
 * for the channel's next work, once its partition is this process's again).
 */
export class Lane {
  private passing: Promise<void> | undefined;
  private pokedDuringPass = false;
  private timer: unknown;
  private timerKind: 'batch' | 'retry' | undefined;
  private stopped = false;
  private readonly turn: LaneTurn;
  private readonly burst: BurstHold;
  private readonly failures: LaneFailures;
  private readonly messages: OutgoingMessages;

  constructor(
    readonly channelId: string,
    readonly guildId: string,
    private readonly deps: LaneDeps,
    /** Told when the lane has nothing more to do: idle, or stopped for good (its lease lost). */
    private readonly onIdle: (lane: Lane) => void,
  ) {
    this.turn = new LaneTurn(deps.pacer, deps.clock);
    this.burst = new BurstHold(deps.batchWindow);
    this.failures = new LaneFailures(channelId, guildId, deps, () => this.leaseNow());
    this.messages = new OutgoingMessages(channelId, guildId, deps);
  }

  /** True while the lane has a pass running or a timer set (it must not be dropped). */
  get busy(): boolean {
    return this.passing !== undefined || this.timer !== undefined;
  }

  /** New work for this channel (arrived at `arrivedAt`, if it is an arrival), or a reason to look again. */
  poke(arrivedAt?: number): void {
    if (arrivedAt !== undefined) this.burst.noteArrival(arrivedAt);
    if (this.stopped) return;
    if (this.passing) {
      this.pokedDuringPass = true;
      return;
    }
    // Waiting out a retry: new work changes nothing. Holding a part-filled message: the pass decides again.
    if (this.timerKind === 'retry') return;
    this.clearTimer();
    this.passing = this.pass()
      .then(
        () => this.noteStoreOutcome(this.failures.afterPass(undefined)),
        (error: unknown) => this.noteStoreOutcome(this.failures.afterPass(error)),
      )
      .finally(() => {
        this.passing = undefined;
        // A lane that stopped (its lease lost, or the worker stopped it) is dropped even when poked meanwhile: one
        // left registered would swallow every later poke, and its channel would never be posted again here.
        if (this.pokedDuringPass && !this.stopped) {
          this.pokedDuringPass = false;
          this.poke();
        } else if (!this.busy) {
          this.onIdle(this);
        }
      });
  }

  /** What a pass that completed, or failed at the store, leaves the lane to do (see {@link LaneFailures.afterPass}). */
  private noteStoreOutcome(after: AfterFailure): void {
    if (after.next === 'end') {
      this.stopped = true;
      this.clearTimer();
    }
    if (after.next === 'retry' && !this.stopped) this.setTimer('retry', after.delayMs);
  }

  /** Waits out a retry time stored before a restart, then runs. */
  resumeAt(retryAt: number): void {
    const delay = retryAt - this.deps.clock();
    if (delay > 0) this.setTimer('retry', delay);
    else this.poke();
  }

  /** Stops starting sends; resolves once the send in flight (if any) is done with. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.turn.withdraw();
    this.clearTimer();
    await this.passing;
  }

  /** Sends message after message until the lane is empty, a message waits for more, or a send fails. */
  private async pass(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const outgoing = await this.prepare();
      if (!outgoing) return;
      const nonce = nonceOf(outgoing);
      // Withdrawn while waiting for its turn (the lane stopped): sent by whoever posts the channel next.
      if (!(await this.turn.take(outgoing))) return;
      // The lease is checked again right before the send: the write-down may be a while ago (a pause, a slow
      // store, the turn above), and a process that lost the lease must not post what the next owner will resend.
      this.leaseNow();
      let messageId: string | void = undefined;
      try {
        if (outgoing.kind === 'update') {
          if ((await outgoing.run()) === 'gone') {
            // The card can no longer be edited: the entry is written down again as a message of its own.
            await this.deps.queue.release(this.channelId, nonce, this.leaseNow());
            continue;
          }
        } else {
          const earlier = await findEarlierPost(this.deps, this.channelId, outgoing);
          messageId = earlier ?? (await this.deps.send(this.channelId, outgoing.body));
        }
      } catch (error) {
        if (error instanceof LeaseLostError) throw error;
        const failure = failureInLane(error, this.channelId);
        this.deps.onSendOutcome(failure);
        const after = await this.failures.afterSend(outgoing.entries, nonce, failure);
        if (after.next === 'again') this.pokedDuringPass = true;
        if (after.next === 'retry') this.setTimer('retry', after.delayMs);
        return;
      }
      this.deps.onSendOutcome(undefined);
      this.turn.sent(messageId);
      if (outgoing.kind === 'post' && messageId) await this.notePosted(messageId, outgoing.rendered);
      const postedAt = this.deps.clock();
      await this.deps.queue.ack(this.channelId, nonce, postedAt, this.leaseNow());
      this.failures.noteSent(outgoing.entries);
      this.deps.onPosted?.(outgoing.entries, postedAt);
    }
  }

  /**
   * Where the message's cards are, before the ack. A store that fails here fails the pass: the message is sent
   * again under its nonce (Discord answers with the same message) and its cards recorded then.
   */
  private async notePosted(messageId: string, rendered: RenderedEntry[]): Promise<void> {
    try {
      await this.deps.cards?.posted(this.guildId, this.channelId, messageId, rendered);
    } catch (error) {
      if (!(error instanceof SendError)) throw error;
      // Discord refused an edit of an earlier card: the post stands, that card keeps the state it shows.
      this.deps.logger.warn({ channelId: this.channelId, messageId, err: error }, 'could not bring a card up to date');
    }
  }

  /** The next message: the one written down before (sent again as it was), or a new one, written down first. */
  private async prepare(): Promise<Outgoing | undefined> {
    for (;;) {
      const entries = await this.deps.queue.nextFor(this.channelId, MAX_EMBEDS_PER_MESSAGE);
      const [first] = entries;
      if (!first) return undefined;
      if (first.writtenNonce !== null) {
        const written = await this.deps.queue.writtenMessage(this.channelId, first.writtenNonce);
        return this.messages.fromWritten(entries, first.writtenNonce, written);
      }

      const candidates = this.failures.takeCandidates(entries);
      const plan = await this.messages.plan(candidates);
      if (plan.kind === 'post') {
        const full = plan.cut || candidates.length === MAX_EMBEDS_PER_MESSAGE || candidates.length < entries.length;
        if (!full && this.holdForMore()) return undefined;
      }
      this.burst.release();
      const outgoing = this.messages.fromPlan(plan, undefined);
      // Written down before it is sent: a crash after the send resends this very message, under this nonce.
      const seqs = outgoing.entries.map((entry) => entry.seq);
      if (outgoing.kind === 'update') {
        // One entry: a resend plans it again (the card may be gone by then, and it is posted on its own).
        if (await this.deps.queue.writeDown(this.channelId, outgoing.nonce, seqs, undefined, this.leaseNow())) {
          return outgoing;
        }
        continue;
      }
      const written = writtenFormOf(outgoing);
      if (await this.deps.queue.writeDown(this.channelId, outgoing.body.nonce, seqs, written, this.leaseNow())) {
        return outgoing;
      }
    }
  }

  /** This process's lease on the lane's guild; throws {@link LeaseLostError} (ending the lane) when it has none. */
  private leaseNow(): Lease {
    const lease = this.deps.lease();
    if (!lease) throw new LeaseLostError(partitionOf(this.guildId));
    return lease;
  }

  /** True while a part-filled message should wait for more of a burst (see {@link BatchWindow}). */
  private holdForMore(): boolean {
    const wait = this.burst.waitFor(this.deps.clock());
    if (wait === undefined) return false;
    this.setTimer('batch', wait);
    return true;
  }

  private setTimer(kind: 'batch' | 'retry', ms: number): void {
    this.clearTimer();
    this.timerKind = kind;
    this.timer = this.deps.timers.setTimeout(() => {
      this.timer = undefined;
      this.timerKind = undefined;
      this.poke();
    }, ms);
  }

  private clearTimer(): void {
    if (this.timer !== undefined) this.deps.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.timerKind = undefined;
  }
}
