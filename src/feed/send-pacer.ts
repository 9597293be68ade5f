import type { Clock } from '../base/clock.js';
import { MinHeap } from '../base/min-heap.js';
import type { Timers } from '../base/timers.js';

/** Discord's global limit is counted per second from a bot's first request in it (as @discordjs/rest counts it). */
const WINDOW_MS = 1_000;

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
 * every channel it already had, though their entries had waited through the hand-over. Counted the way discord.js
 * counts (so discord.js, which still limits every request the bot makes, seldom holds a lane's send), and a send
 * still waiting here is withdrawn when its lane stops, which one queued in discord.js cannot be.
 */
export class SendPacer {
  private readonly waiting = new MinHeap<Waiter>(
    (a, b) => a.since < b.since || (a.since === b.since && a.asked < b.asked),
  );
  private asks = 0;
  private windowEndsAt = 0;
  private left = 0;
  private timer: unknown;

  constructor(
    private perSecond: number,
    private readonly clock: Clock,
    private readonly timers: Timers,
  ) {}

  /** A new share of the limit: counted from the next second on (discord.js reads its own then too). */
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

  /** Lets the oldest waiters go while this second has room; else waits for the next second. */
  private grant(): void {
    for (;;) {
      const now = this.clock();
      // A second starts with the first send after the last one ended: what the last one left unused is gone.
      if (now >= this.windowEndsAt && this.hasWaiter()) {
        this.windowEndsAt = now + WINDOW_MS;
        this.left = this.perSecond;
      }
      if (this.left <= 0) break;
      const next = this.waiting.pop();
      if (!next) return;
      if (next.withdrawn) continue;
      this.left -= 1;
      next.go();
    }
    if (this.timer === undefined && this.hasWaiter()) {
      this.timer = this.timers.setTimeout(
        () => {
          this.timer = undefined;
          this.grant();
        },
        Math.max(0, this.windowEndsAt - this.clock()),
      );
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
