import type { Timers } from '../../src/base/timers.js';

interface Pending {
  at: number;
  seq: number;
  callback: () => void;
}

/**
 * A fake clock with the timers that go with it: nothing happens until a test calls {@link advance}, which
 * moves the clock to each due timer in turn, fires it, and waits for the work it started to settle.
 */
export class ManualTime implements Timers {
  private current: number;
  private seq = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(start = Date.UTC(2026, 10, 20, 12, 0, 0)) {
    this.current = start;
  }

  /** The clock, for `clock:` options. */
  readonly now = (): number => this.current;

  setTimeout(callback: () => void, ms: number): unknown {
    const seq = (this.seq += 1);
    this.pending.set(seq, { at: this.current + Math.max(0, ms), seq, callback });
    return seq;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.pending.delete(handle);
  }

  /** Timers waiting to fire. */
  get waiting(): number {
    return this.pending.size;
  }

  /**
   * Moves the clock forward by `ms`, firing every timer that falls due on the way at its own time, oldest first,
   * and awaiting `settle` after each (and once at the start), so the fired work finishes before time moves on.
   */
  async advance(ms: number, settle: () => Promise<void>): Promise<void> {
    const target = this.current + ms;
    await settle();
    for (;;) {
      const next = [...this.pending.values()]
        .filter((timer) => timer.at <= target)
        .sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (!next) break;
      this.pending.delete(next.seq);
      this.current = Math.max(this.current, next.at);
      next.callback();
      await settle();
    }
    this.current = target;
    await settle();
  }
}
