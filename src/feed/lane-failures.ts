import { backoffDelay, type BackoffPolicy } from '../base/backoff.js';
import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import { SendError, toSendFailure, type SendFailure } from '../discord/posting/send-failure.js';
import { LeaseLostError, type Lease, type QueuedEntry } from '../store/deliveries.js';
import type { LaneQueue } from '../store/lane-queue.js';

/**
 * What a failed send means for the lane of `channelId`. A card's edit or reply goes to the card's channel, which is
 * not always the lane's (the event's route changed since the card was posted): Discord refusing that channel says
 * nothing of the lane's own, so it holds only the entry that asked for it (as a refused message), never the lane.
 */
export function failureInLane(error: unknown, channelId: string): SendFailure {
  const failure = toSendFailure(error);
  const elsewhere = error instanceof SendError ? error.channelId : undefined;
  if (failure.kind !== 'broken' || elsewhere === undefined || elsewhere === channelId) return failure;
  const { status, code, reason } = failure;
  return {
    kind: 'rejected',
    status,
    ...(code === undefined ? {} : { code }),
    reason: `${reason} (in channel ${elsewhere})`,
  };
}

/** What {@link LaneFailures} needs of the lane. */
export interface LaneFailuresDeps {
  queue: LaneQueue;
  logger: Logger;
  clock: Clock;
  backoff: BackoffPolicy;
  random: () => number;
  /** Told when a pass failed for a reason other than Discord's (the store), and when one completes again. */
  onStoreOutcome?(error: unknown): void;
  /** Told each time the lane backs off before trying again (the metrics count them). */
  onBackoff?(): void;
}

/**
 * What the lane does next: carry on (nothing more to do now: an unusable channel waits for an admin), look again
 * at once, try again after a delay, or end (another process holds the guild now).
 */
export type AfterFailure = { next: 'none' } | { next: 'again' } | { next: 'retry'; delayMs: number } | { next: 'end' };

/**
 * What goes wrong in one lane: what each kind of failed send does to the entries (hold them, split a refused
 * batch, back off), which entries go alone while the one Discord refuses is looked for, and the backoff after a
 * pass the store failed. It counts failures in a row of each kind.
 */
export class LaneFailures {
  private failures = 0;
  /** Passes in a row that the store failed (it restarts, fails over, is out of disk): the lane backs off. */
  private storeFailures = 0;
  /** Entries of a batch Discord refused: each goes alone next, so the one at fault is found. */
  private readonly sendAlone = new Set<number>();

  constructor(
    private readonly channelId: string,
    private readonly guildId: string,
    private readonly deps: LaneFailuresDeps,
    /** The lane's lease now (throws when it has none). */
    private readonly leaseNow: () => Lease,
  ) {}

  /** The entries that may share the next message: up to the first that must go alone, or that one alone. */
  takeCandidates(entries: QueuedEntry[]): QueuedEntry[] {
    const aloneAt = entries.findIndex((entry) => this.sendAlone.has(entry.seq));
    if (aloneAt === 0) return entries.slice(0, 1);
    return aloneAt === -1 ? entries : entries.slice(0, aloneAt);
  }

  /** A message went out: the failures in a row are over, and its entries no longer need to go alone. */
  noteSent(entries: readonly QueuedEntry[]): void {
    this.failures = 0;
    for (const entry of entries) this.sendAlone.delete(entry.seq);
  }

  /** Records a failed send of `entries` (written down under `nonce`) and says what the lane does next. */
  async afterSend(entries: QueuedEntry[], nonce: string, failure: SendFailure): Promise<AfterFailure> {
    const log = { channelId: this.channelId, guildId: this.guildId, entries: entries.length, reason: failure.reason };
    switch (failure.kind) {
      case 'broken':
        // Nothing was posted: every entry of the lane is held, kept until an admin changes the routes.
        await this.deps.queue.holdBrokenChannel(
          {
            channelId: this.channelId,
            guildId: this.guildId,
            status: failure.status,
            reason: failure.reason,
            since: this.deps.clock(),
          },
          this.leaseNow(),
        );
        this.deps.logger.warn(
          { ...log, status: failure.status },
          'channel unusable: its events are kept until the routes change',
        );
        return { next: 'none' };
      case 'rejected': {
        const [only] = entries;
        if (entries.length === 1 && only) {
          await this.deps.queue.holdRefused([only.seq], failure.reason, this.deps.clock(), this.leaseNow());
          this.sendAlone.delete(only.seq);
          this.deps.logger.error(
            { ...log, status: failure.status, deliveryId: only.deliveryId },
            'Discord refused a message; its entry is kept aside (see /status)',
          );
        } else {
          // One entry of the batch is at fault: its entries go one by one, through the usual path, to find it.
          await this.deps.queue.release(this.channelId, nonce, this.leaseNow());
          for (const entry of entries) this.sendAlone.add(entry.seq);
          this.deps.logger.warn(log, 'Discord refused a batch; sending its entries one by one');
        }
        return { next: 'again' };
      }
      case 'wait':
        return this.retryIn(failure.retryAfterMs, log);
      case 'retry':
      case 'unauthorized': {
        const delay = backoffDelay(this.failures + 1, this.deps.backoff, this.deps.random);
        this.failures = await this.deps.queue.noteFailure(this.channelId, this.guildId, this.deps.clock() + delay);
        return this.retryIn(delay, { ...log, failures: this.failures });
      }
    }
  }

  /**
   * A pass that threw failed at the store (a send's failures are handled inside it): nothing was lost, since
   * what is written down stays and an ack that did not commit is sent again under the same nonce. The lane
   * tries again after a backoff, and keeps the process up. `error` is undefined after a pass that completed.
   */
  afterPass(error: unknown): AfterFailure {
    const where = { channelId: this.channelId, guildId: this.guildId };
    if (error instanceof LeaseLostError) {
      // Not a failure: another process posts this channel now, from what the store holds (a message written
      // down here is resent there under its nonce). This lane ends; the worker drops it.
      this.deps.logger.info(where, 'this process no longer holds the lease of this channel’s guild; its lane stops');
      return { next: 'end' };
    }
    if (error === undefined) {
      this.storeFailures = 0;
      this.deps.onStoreOutcome?.(undefined);
      return { next: 'none' };
    }
    this.storeFailures += 1;
    this.deps.onStoreOutcome?.(error);
    const delay = backoffDelay(this.storeFailures, this.deps.backoff, this.deps.random);
    this.deps.onBackoff?.();
    this.deps.logger.warn(
      { ...where, err: error, failures: this.storeFailures, retryInMs: delay },
      'the store failed during a send; the lane tries again',
    );
    return { next: 'retry', delayMs: delay };
  }

  private retryIn(delayMs: number, log: Record<string, unknown>): AfterFailure {
    this.deps.onBackoff?.();
    this.deps.logger.warn({ ...log, retryInMs: delayMs }, 'send failed; will retry');
    return { next: 'retry', delayMs };
  }
}
