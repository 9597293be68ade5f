import type { Clock } from '../base/clock.js';
import { MinHeap } from '../base/min-heap.js';
import type { Timers } from '../base/timers.js';

const SECOND_MS = 1_000;

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
 * The sends go one at a time, evenly spaced (1000 / share ms apart), not a second's share at once: so the feed
 * processes' shares add up to the bot's 50 in any second, however their seconds fall, and a new share counts from
 * the next send on. A process that took a dead one's partitions posts at the larger share at once, since the dead
 * one's sends stopped when it died. Sent in bursts, it had to keep its old share until its next second (up to 1 s
 * of the channels it took waiting), or put the bot over 50 in the second of the dead one's last burst.
 */
export class SendPacer {
  private readonly waiting = new MinHeap<Waiter>(
    (a, b) => a.since < b.since || (a.since === b.since && a.asked < b.asked),
  );
  private asks = 0;
  /** When the last send was due (or went, after an idle spell): the next is due a spacing later. */
  private lastDue = Number.NEGATIVE_INFINITY;
  private timer: unknown;

  constructor(
    private perSecond: number,
    private readonly clock: Clock,
    private readonly timers: Timers,
  ) {}

  /** A new share of the limit, from the next send on: the wait for it is counted again at the new spacing. */
  setRate(perSecond: number): void {
    this.perSecond = Math.max(1, Math.floor(perSecond));
    if (this.timer !== undefined) {
      this.timers.clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.grant();
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

  /** Lets the oldest waiter go when its send is due, and waits for the next one's. */
  private grant(): void {
    const spacing = SECOND_MS / this.perSecond;
    while (this.hasWaiter()) {
      const now = this.clock();
      const due = this.lastDue + spacing;
      if (now < due) {
        this.timer ??= this.timers.setTimeout(() => {
          this.timer = undefined;
          this.grant();
        }, due - now);
        return;
      }
      // A send let go a little late (the timer, a busy event loop) keeps the next one due a spacing after this one
      // was, so the share holds; after an idle spell the spacing counts from now, and no sends are saved up.
      this.lastDue = now - due < spacing ? due : now;
      this.waiting.pop()?.go();
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
