/**
 * A message with room left waits for more events of its channel while they keep coming: until `quietMs`
 * pass without one, or `maxMs` after the first, or it is full. A burst then leaves as full messages from its
 * first one (each message costs one slot of Discord's per-channel rate limit); a lone event waits `quietMs`.
 */
export interface BatchWindow {
  quietMs: number;
  maxMs: number;
}

export const DEFAULT_BATCH_WINDOW: BatchWindow = { quietMs: 20, maxMs: 200 };

/** One lane's use of its {@link BatchWindow}: when its events came, and since when its next message waits. */
export class BurstHold {
  private lastArrivalAt = 0;
  private holdingSince: number | undefined;

  constructor(private readonly window: BatchWindow) {}

  /** An event for the channel arrived at `at`. */
  noteArrival(at: number): void {
    this.lastArrivalAt = Math.max(this.lastArrivalAt, at);
  }

  /** How long a part-filled message should still wait for more of a burst, or undefined when it goes now. */
  waitFor(now: number): number | undefined {
    this.holdingSince ??= now;
    const quietUntil = this.lastArrivalAt + this.window.quietMs;
    const deadline = this.holdingSince + this.window.maxMs;
    if (now >= quietUntil || now >= deadline) return undefined;
    return Math.min(quietUntil, deadline) - now;
  }

  /** The message goes: the next one's `maxMs` counts from when it is first looked at. */
  release(): void {
    this.holdingSince = undefined;
  }
}
