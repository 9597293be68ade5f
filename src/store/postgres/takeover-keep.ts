import { performance } from 'node:perf_hooks';

/**
 * Partitions taken over from a process that left are kept this long before any may go to a process that joined:
 * the lanes of a dead process's partitions send what waited through the hand-over first, at the survivor's rate,
 * instead of being stopped before their first send and started cold in the restarted process (the ~10 s failovers
 * of issue 23). Longer than a restart: a supervisor's restart of `npm start` listens 1.5–3 s after the kill, while
 * the survivor's first turn over every channel with work takes (channels with work) / 50 s (docs/benchmarks.md:
 * with 3 s, hand-backs in the middle of that turn made the slowest channels wait 4–5 s).
 */
const DEFAULT_KEEP_TAKEN_MS = 10_000;

/** Whether the partitions a process holds may be given back yet, after what it last took over. */
export class TakeoverKeep {
  /** Until when (performance.now()) the partitions last taken over are kept. */
  private keptUntil = 0;

  constructor(private readonly keepMs = DEFAULT_KEEP_TAKEN_MS) {}

  /**
   * Partitions were taken by a process that held `heldBefore`. Held some already: a member left, and they are
   * taken over and kept. Held none (just started, alone or not): nothing is kept, those that join share at once.
   */
  took(heldBefore: number): void {
    if (heldBefore > 0) this.keptUntil = performance.now() + this.keepMs;
  }

  /** True while what was last taken over is kept: nothing is given back yet. */
  keeping(): boolean {
    return performance.now() < this.keptUntil;
  }

  /** Everything was lost: nothing is kept any more. */
  reset(): void {
    this.keptUntil = 0;
  }
}
