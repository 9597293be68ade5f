import type { Clock } from '../base/clock.js';
import { MinHeap } from '../base/min-heap.js';
import type { Timers } from '../base/timers.js';
import { LastSecond } from './last-second.js';

const SECOND_MS = 1_000;
/**
 * A second's share goes out in parts, twenty a second, 50 ms apart: by the end of part i of a run,
 * ceil((i + 1) x share / 20) sends may have gone (at 50 a second, 3 and 2 in turn). Spread out, the feed processes'
 * shares add up to the bot's 50 in any second however their seconds fall, and a new share counts at once. A part's
 * sends are answered together and their lanes' work is done in fewer turns of the event loop (one send at a time
 * cost the feed about 60 % more CPU a message in the backlog benchmark's drain; in fifths, as much as whole
 * seconds). A channel back from idle does not wait for the next part (BACK_FROM_IDLE_KEPT_FROM).
 */
const PARTS_PER_SECOND = 20;
const PART_MS = SECOND_MS / PARTS_PER_SECOND;
/**
 * How many parts' sends a late turn may still make up (a busy event loop fired the timer late, or the lanes asked
 * late): a fifth of a second's. Small parts would otherwise lose most of the share on a slow machine; more would be
 * a burst after an idle spell, which spreading is there to avoid.
 */
const PARTS_MADE_UP = 4;
/**
 * From a share of this many a second on, the busy lanes leave one send a second to a channel back from idle (a lane's
 * first message: lane-turn.ts), which goes at once: not after the next part (up to 50 ms), nor, while the busy lanes
 * spend the share, after the last second's oldest send stops counting (up to 190 ms: a quiet channel's case takes at
 * most 100 ms from the intake's answer to its post, `feed.post_latency_p99_ms` in docs/benchmarks.md). Of two back
 * in the same second, the second waits its turn as the busy lanes do.
 */
const BACK_FROM_IDLE_KEPT_FROM = 10;

interface Waiter {
  /** Since when the lane's channel has waited for a post: the earliest goes first. */
  since: number;
  /** The order it asked in: of two that waited since the same moment, the first to ask goes first. */
  asked: number;
  go: () => void;
  /** Withdrawn (its lane stopped) while waiting: dropped when it comes out. */
  withdrawn: boolean;
  /** A channel back from idle: it may take the send kept for one (BACK_FROM_IDLE_KEPT_FROM). */
  backFromIdle: boolean;
}

/**
 * Hands out this process's share of Discord's global rate limit to the feed's lanes, the channel that has waited
 * longest first (since its last post or its oldest entry, whichever is later; a channel back from idle first:
 * lane-turn.ts). discord.js queues sends in the order they are made, one turn each: after a failover, the channels a
 * process took over then queued behind every channel it already had, though their entries had waited through the
 * hand-over. A send still waiting here is withdrawn when its lane stops, which one queued in discord.js cannot be.
 *
 * Two rules hold each send: the run's schedule (PARTS_PER_SECOND, a late turn making up at most PARTS_MADE_UP parts)
 * spreads the share out, and no second counted from anywhere holds more than the share (last-second.ts), whatever
 * the share, the event loop's delays or a change of share; of it, the busy lanes leave one send a second to a
 * channel back from idle, which goes at once (BACK_FROM_IDLE_KEPT_FROM). A process that took a dead
 * one's partitions posts at the larger share at once, since the dead one's sends stopped when it died. Sent a whole
 * second's share at once, it had to keep its old share until its next second (up to 1 s of the channels it took
 * waiting), or put the bot over 50 in the second of the dead one's last burst.
 */
export class SendPacer {
  private readonly waiting = new MinHeap<Waiter>(
    (a, b) => a.since < b.since || (a.since === b.since && a.asked < b.asked),
  );
  private asks = 0;
  /** When the running run of parts began: at the first send, and again when the share changes. */
  private runStartedAt: number | undefined;
  /** Sends the run counted (those made, and those of parts too far back to make up). */
  private sentInRun = 0;
  /** The sends of the last second. */
  private readonly lastSecond = new LastSecond();
  /** Sends that go only when no lane waits (a replay's): first come, first served. */
  private readonly spare: Waiter[] = [];
  /** Spare sends the run counted: at most half of the run's schedule. */
  private spareInRun = 0;
  private timer: unknown;

  constructor(
    private perSecond: number,
    private readonly clock: Clock,
    private readonly timers: Timers,
  ) {}

  /** A new share of the limit, counted at once: a new run begins, and the last second's sends still count. */
  setRate(perSecond: number): void {
    this.perSecond = Math.max(1, Math.floor(perSecond));
    this.runStartedAt = undefined;
    this.sentInRun = 0;
    this.spareInRun = 0;
    // The timer waits for a send at the old share, which may come later than one at the new.
    if (this.timer === undefined) return;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    this.grant();
  }

  /**
   * Resolves true when the send of a lane waiting `since` then may go, false if `signal` aborted first
   * (the lane stopped: its message was not sent, and stays written down for whoever posts the channel next).
   */
  take(since: number, signal?: AbortSignal, backFromIdle = false): Promise<boolean> {
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
        backFromIdle,
      };
      signal?.addEventListener('abort', withdraw, { once: true });
      this.waiting.push(waiter);
      this.grant();
    });
  }

  /**
   * Resolves true when a send that must never delay the lanes may go (a replay's): only when no lane is waiting, and
   * at most half of a part's sends, so a lane whose work arrives meanwhile still finds its turn in this part or the
   * next (50 ms). False if `signal` aborted first.
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
        backFromIdle: false,
      };
      signal?.addEventListener('abort', withdraw, { once: true });
      this.spare.push(waiter);
      this.grant();
    });
  }

  /** Lets the oldest waiters go while both rules allow, then spare ones; else waits until they may. */
  private grant(): void {
    while (this.hasWaiter() || this.hasSpareWaiter()) {
      const now = this.clock();
      const first = this.hasWaiter() ? this.waiting.peek() : undefined;
      let waitMs = first?.backFromIdle ? this.waitBeforeBackFromIdle(now) : this.waitBeforeSend(now);
      const lane = waitMs > 0 ? undefined : first;
      if (waitMs === 0 && !lane) waitMs = this.waitBeforeSpare(now);
      if (waitMs > 0) {
        if (this.timer === undefined) {
          this.timer = this.timers.setTimeout(() => {
            this.timer = undefined;
            this.grant();
          }, waitMs);
        }
        return;
      }
      const next = lane ? this.waiting.pop() : this.spare.shift();
      if (!next || next.withdrawn) continue;
      if (!lane) this.spareInRun += 1;
      this.sentInRun += 1;
      this.lastSecond.note(now);
      next.go();
    }
  }

  /**
   * 0 when a spare send may go now: spare sends take at most half of the run's schedule (every other send at 20 a
   * second, one or two of a part's 3 and 2 at 50), and none saved up beyond PARTS_MADE_UP; else how long until one may.
   */
  private waitBeforeSpare(now: number): number {
    const runStartedAt = this.runStartedAt ?? now;
    const part = Math.floor((now - runStartedAt) / PART_MS);
    const spareBy = (parts: number) => Math.floor(this.dueBy(parts) / 2);
    this.spareInRun = Math.max(this.spareInRun, spareBy(part + 1 - PARTS_MADE_UP));
    let next = part;
    while (spareBy(next + 1) <= this.spareInRun) next += 1;
    return next === part ? 0 : runStartedAt + next * PART_MS - now;
  }

  /** 0 when a send may go now; else how long until one may. */
  private waitBeforeSend(now: number): number {
    this.runStartedAt ??= now;
    const part = Math.floor((now - this.runStartedAt) / PART_MS);
    // Parts further back than PARTS_MADE_UP are counted as sent: no sends are saved up through an idle spell.
    this.sentInRun = Math.max(this.sentInRun, this.dueBy(part + 1 - PARTS_MADE_UP));
    let waitMs = 0;
    if (this.sentInRun >= this.dueBy(part + 1)) {
      let next = part + 1;
      while (this.dueBy(next + 1) <= this.sentInRun) next += 1;
      waitMs = this.runStartedAt + next * PART_MS - now;
    }
    const opensAt = this.lastSecond.opensAt(this.perSecond - this.keptBackFromIdle(), now);
    if (opensAt > now) {
      waitMs = Math.max(waitMs, opensAt - now);
      // The parts passing meanwhile are not made up when the second opens again, but for the one before it (the
      // second may open just past a part's sends): made up, their sends went together the moment it opened, filled
      // it again, and a second later closed it again for a part or more, every second (under a spent share a
      // channel back from idle waited up to 190 ms for its first post).
      const opensInPart = Math.floor((opensAt - this.runStartedAt) / PART_MS);
      this.sentInRun = Math.max(this.sentInRun, this.dueBy(opensInPart - 1));
    }
    return waitMs;
  }

  /** 0 when a channel back from idle may send now (the whole share counts, not the run's schedule); else how long until. */
  private waitBeforeBackFromIdle(now: number): number {
    this.runStartedAt ??= now;
    return this.lastSecond.opensAt(this.perSecond, now) - now;
  }

  /** The sends of a second the busy lanes leave for channels back from idle. */
  private keptBackFromIdle(): number {
    return this.perSecond >= BACK_FROM_IDLE_KEPT_FROM ? 1 : 0;
  }

  /** The sends the run's schedule allows by the end of its first `parts` parts. */
  private dueBy(parts: number): number {
    return Math.ceil((Math.max(0, parts) * this.perSecond) / PARTS_PER_SECOND);
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

  /** True while a spare waiter is not withdrawn (withdrawn ones at the front are dropped on the way). */
  private hasSpareWaiter(): boolean {
    for (;;) {
      const first = this.spare[0];
      if (!first) return false;
      if (!first.withdrawn) return true;
      this.spare.shift();
    }
  }
}
