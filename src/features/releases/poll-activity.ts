import type { Timers } from '../../base/timers.js';

/** A wait on a timer that can be cut short. */
export interface Nap {
  /** Resolves when the time is up or {@link wake} was called. */
  done: Promise<void>;
  /** Ends the wait now. */
  wake: () => void;
}

/**
 * Counts the poller's work in progress (its loop and each guild's poll run side by side) and its waits on
 * timers, so a test with a fake clock can await the moment when nothing runs and everything waits for a timer.
 */
export class PollActivity {
  private running = 0;
  private readonly naps = new Set<Nap>();
  private readonly idleWaiters = new Set<() => void>();

  constructor(private readonly timers: Timers) {}

  /** Counts one piece of work that starts. */
  begin(): void {
    this.running += 1;
  }

  /** Counts one piece of work that ended (or went to sleep). */
  end(): void {
    this.running -= 1;
    if (this.running > 0) return;
    for (const resolve of this.idleWaiters) resolve();
    this.idleWaiters.clear();
  }

  /** Waits `ms` on a timer; the work that sleeps does not count as running meanwhile. */
  sleep(ms: number): Nap {
    let resolveDone: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (resolveDone = resolve));
    const wake = (): void => {
      if (!this.naps.delete(nap)) return;
      this.timers.clearTimeout(handle);
      this.begin();
      resolveDone();
    };
    const nap: Nap = { done, wake };
    this.naps.add(nap);
    const handle = this.timers.setTimeout(wake, ms);
    this.end();
    return nap;
  }

  /** Ends every wait now (the poller stops). */
  wakeAll(): void {
    for (const nap of [...this.naps]) nap.wake();
  }

  /** Resolves once no work runs: everything waits for a timer, or has ended. */
  settled(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.add(resolve));
  }
}
