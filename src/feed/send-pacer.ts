import type { Clock } from '../base/clock.js';
import { MinHeap } from '../base/min-heap.js';
import type { Timers } from '../base/timers.js';

const SECOND_MS = 1_000;
/**
 * A second's share goes out in parts, twenty a second, 50 ms apart: part i of a run lets go
 * ceil((i + 1) x share / 20) - ceil(i x share / 20) sends (at 50 a second, 3 and 2 in turn). Any twenty parts in a row
 * add up to the share exactly, so no second (counted from anywhere) holds more than the share, whatever the share;
 * spread out, the feed processes' shares add up to the bot's 50 in any second however their seconds fall, and a new
 * share counts from the next part. A part's sends are answered together and their lanes' work is done in fewer
 * turns of the event loop (one send at a time cost the feed about 60 % more CPU a message in the backlog benchmark's
 * drain; in fifths, as much as whole seconds). Fifths made a channel back from idle wait up to 200 ms for the next
 * part even when it goes first (lane-turn.ts): twice the 100 ms a quiet channel's case may take from the intake's
 * answer to its post (`feed.post_latency_p99_ms`, docs/benchmarks.md); and a share that fifths did not divide (37 of
 * a process holding 48 partitions: 8 every 216 ms) let more than the share go in some seconds.
 */
const PARTS_PER_SECOND = 20;
const PART_MS = SECOND_MS / PARTS_PER_SECOND;

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
  private asks = 0;
  /** When part 0 of the running run of parts began; a run begins with a send after a second without one. */
  private runStartedAt = -Infinity;
  /** The part of the run whose sends `left` counts. */
  private part = -1;
  private left = 0;
  private lastSentAt = -Infinity;
  private timer: unknown;

  constructor(
    private perSecond: number,
    private readonly clock: Clock,
    private readonly timers: Timers,
  ) {}

  /** A new share of the limit, from the next part on (50 ms away at most). */
  setRate(perSecond: number): void {
    this.perSecond = Math.max(1, Math.floor(perSecond));
    // The timer waits for the next part that lets a send go at the old share, which may be later.
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
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

  /** Lets the oldest waiters go while this part has room; else waits for the next part that has. */
  private grant(): void {
    while (this.hasWaiter()) {
      const now = this.clock();
      this.enterPart(now);
      if (this.left <= 0) break;
      const next = this.waiting.pop();
      if (!next || next.withdrawn) continue;
      this.left -= 1;
      this.lastSentAt = now;
      next.go();
    }
    if (this.timer === undefined && this.hasWaiter()) {
      this.timer = this.timers.setTimeout(
        () => {
          this.timer = undefined;
          this.grant();
        },
        Math.max(0, this.nextPartWithSendsAt() - this.clock()),
      );
    }
  }

  /**
   * Counts `now` into its part of the run. After a second without a send a new run begins now, with the first send
   * at once: none of its seconds can hold a send of the run before. A part opened late (a timer, a busy event loop)
   * is the part its time falls in, so the share holds; what a skipped part did not send is gone: no sends are saved
   * up.
   */
  private enterPart(now: number): void {
    if (now - this.lastSentAt >= SECOND_MS) {
      this.runStartedAt = now;
      this.part = -1;
    }
    const part = Math.floor((now - this.runStartedAt) / PART_MS);
    if (part === this.part) return;
    this.part = part;
    this.left = this.sendsOf(part);
  }

  /** Part `part`'s sends at today's share: any PARTS_PER_SECOND parts in a row add up to the share. */
  private sendsOf(part: number): number {
    const upTo = (parts: number) => Math.ceil((parts * this.perSecond) / PARTS_PER_SECOND);
    return upTo(part + 1) - upTo(part);
  }

  /** When the next part after this one that lets a send go begins (one in every part at a share of 20 or more). */
  private nextPartWithSendsAt(): number {
    let part = this.part + 1;
    while (this.sendsOf(part) === 0) part += 1;
    return this.runStartedAt + part * PART_MS;
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
