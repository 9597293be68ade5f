import type { Clock } from '../base/clock.js';
import { MinHeap } from '../base/min-heap.js';
import type { Timers } from '../base/timers.js';

const SECOND_MS = 1_000;
/**
 * A second's share goes out in fifths: a fifth of a second apart, a fifth of the share at once. Spread out, the feed
 * processes' shares add up to the bot's 50 in any second however their seconds fall, and a new share counts from
 * the next fifth; together, a fifth's sends are answered together and their lanes' work is done in fewer turns of
 * the event loop (one send at a time cost the feed about 60 % more CPU a message in the backlog benchmark's drain;
 * in fifths, as much as whole seconds).
 */
const PARTS_PER_SECOND = 5;

interface Waiter {
  /** Since when the lane's channel has waited for a post: the earliest goes first. */
  since: number;
  /** The order it asked in: of two that waited since the same moment, the first to ask goes first. */
  asked: number;
  go: () => void;
  /** Withdrawn (its lane stopped) while waiting: dropped when it comes out. */
  withdrawn: boolean;
}

/**
 * Hands out this process's share of Discord's global rate limit to the feed's lanes, the channel that has waited
 * longest first (since its last post or its oldest entry, whichever is later: lane-turn.ts). discord.js queues sends
 * in the order they are made, one turn each: after a failover, the channels a process took over then queued behind
 * every channel it already had, though their entries had waited through the hand-over. A send still waiting here is
 * withdrawn when its lane stops, which one queued in discord.js cannot be.
 *
 * The share goes out a part at a time (PARTS_PER_SECOND). A process that took a dead one's partitions posts at the
 * larger share from its next part on, since the dead one's sends stopped when it died. Sent a whole second's share
 * at once, it had to keep its old share until its next second (up to 1 s of the channels it took waiting), or put
 * the bot over 50 in the second of the dead one's last burst.
 */
export class SendPacer {
  private readonly waiting = new MinHeap<Waiter>(
    (a, b) => a.since < b.since || (a.since === b.since && a.asked < b.asked),
  );
  /** Sends that go only when no lane waits (a replay): first come, first served. */
  private readonly spare: Waiter[] = [];
  private asks = 0;
  private partEndsAt = 0;
  private left = 0;
  /** How many of this part's sends the spare waiters may still take. */
  private spareLeft = 0;
  private timer: unknown;

  constructor(
    private perSecond: number,
    private readonly clock: Clock,
    private readonly timers: Timers,
  ) {}

  /** A new share of the limit, from the next part on. */
  setRate(perSecond: number): void {
    this.perSecond = Math.max(1, Math.floor(perSecond));
  }

  /**
   * Resolves true when the send of a lane waiting `since` then may go, false if `signal` aborted first
   * (the lane stopped: its message was not sent, and stays written down for whoever posts the channel next).
   */
  take(since: number, signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const withdraw = () => {
        waiter.withdrawn = true;
        resolve(false);
      };
      const waiter: Waiter = {
        since,
        asked: this.asks++,
        go: () => {
          signal?.removeEventListener('abort', withdraw);
          resolve(true);
        },
        withdrawn: false,
      };
      signal?.addEventListener('abort', withdraw, { once: true });
      this.waiting.push(waiter);
      this.grant();
    });
  }

  /**
   * Resolves true when a send that must never delay the lanes may go (a replay's): only in a part no lane is
   * waiting for, and at most half of a part's sends, so a lane whose work arrives meanwhile still finds its turn
   * in this part or the next (a fifth of a second). False if `signal` aborted first.
   */
  takeSpare(signal?: AbortSignal): Promise<boolean> {
    if (signal?.aborted) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      const withdraw = () => {
        waiter.withdrawn = true;
        resolve(false);
      };
      const waiter: Waiter = {
        since: Infinity,
        asked: this.asks++,
        go: () => {
          signal?.removeEventListener('abort', withdraw);
          resolve(true);
        },
        withdrawn: false,
      };
      signal?.addEventListener('abort', withdraw, { once: true });
      this.spare.push(waiter);
      this.grant();
    });
  }

  /** Lets the oldest waiters go while this part has room, then spare ones; else waits for the next part. */
  private grant(): void {
    for (;;) {
      const now = this.clock();
      if (now >= this.partEndsAt && (this.hasWaiter() || this.hasSpareWaiter())) this.startPart(now);
      if (this.left <= 0) break;
      if (this.hasWaiter()) {
        const next = this.waiting.pop();
        if (!next) return;
        this.left -= 1;
        next.go();
        continue;
      }
      if (this.spareLeft <= 0 || !this.hasSpareWaiter()) break;
      const spare = this.spare.shift();
      if (!spare) break;
      this.left -= 1;
      this.spareLeft -= 1;
      spare.go();
    }
    if (this.timer === undefined && (this.hasWaiter() || this.hasSpareWaiter())) {
      this.timer = this.timers.setTimeout(
        () => {
          this.timer = undefined;
          this.grant();
        },
        Math.max(0, this.partEndsAt - this.clock()),
      );
    }
  }

  /**
   * A part of the share: at least one send, lasting as long as those sends take at this share. One opened a little
   * late (the timer, a busy event loop) counts from when it was due, so the share holds; after an idle spell it counts
   * from now, and what the last one left unused is gone: no sends are saved up.
   */
  private startPart(now: number): void {
    const sends = Math.max(1, Math.round(this.perSecond / PARTS_PER_SECOND));
    const length = (SECOND_MS * sends) / this.perSecond;
    const start = now - this.partEndsAt < length ? this.partEndsAt : now;
    this.partEndsAt = start + length;
    this.left = sends;
    this.spareLeft = Math.max(1, Math.floor(sends / 2));
  }

  /** True while a spare waiter is not withdrawn (withdrawn ones at the front are dropped on the way). */
  private hasSpareWaiter(): boolean {
    for (;;) {
      const first = this.spare[0];
      if (!first) return false;
      if (!first.withdrawn) return true;
      this.spare.shift();
    }
  }

  /** True while a waiter is not withdrawn (the withdrawn ones at the top are dropped on the way). */
  private hasWaiter(): boolean {
    for (;;) {
      const top = this.waiting.peek();
      if (!top) return false;
      if (!top.withdrawn) return true;
      this.waiting.pop();
    }
  }
}
