import { backoffDelay } from './backoff.js';
import type { Clock } from './clock.js';
import type { Timers } from './timers.js';

export interface CoalescedRunsOptions {
  timers: Timers;
  clock: Clock;
  /** Brings one key up to date; true when it sent something (the next run then waits `minGapMs`). */
  run: (key: string) => Promise<boolean>;
  /**
   * A run that failed: logged by the caller, who may keep `retryAt` where it must last; the key backs off (its
   * `failures` in a row so far) and is run again at `retryAt`, the other keys going on meanwhile.
   */
  onError: (key: string, error: unknown, backoff: { failures: number; retryAt: number }) => void;
  /** The least time between two runs of a key that sent something. */
  minGapMs: number;
  /** After a failed run, the wait before the next: about this much at first, doubling with each failure in a row. */
  retryAfterMs: number;
  /** The longest wait after failures, however many (default 60 times `retryAfterMs`). */
  retryCapMs?: number;
}

interface KeyState {
  /** A change came since the last run began: another run is due. */
  dirty: boolean;
  running: boolean;
  /** The next run waits for this time (the gap after a send, or the retry delay after a failure). */
  notBefore: number;
  /** Runs failed in a row: each doubles the wait before the next. */
  failures: number;
  timer: unknown;
}

/**
 * Runs work per key (a guild's board, a guild's session threads) when told the key changed: one run per key at a
 * time, at most one per `minGapMs` after a run that sent something, the changes that came meanwhile coalesced
 * into the next run. A run reads the state it shows at that moment, so one run stands for any number of changes.
 * This is how a Discord message follows a stream of changes within the channel's edit rate limit. A key whose run
 * fails backs off (its wait doubling with each failure in a row) while the other keys run as before.
 */
export class CoalescedRuns {
  private readonly keys = new Map<string, KeyState>();
  private readonly running = new Set<Promise<void>>();
  private stopped = true;

  constructor(private readonly options: CoalescedRunsOptions) {}

  start(): void {
    this.stopped = false;
    for (const [key, state] of this.keys) this.schedule(key, state);
  }

  /** Stops scheduling and waits for the runs under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const state of this.keys.values()) {
      this.options.timers.clearTimeout(state.timer);
      state.timer = undefined;
    }
    await this.idle();
  }

  /** The key changed: it is run soon. */
  changed(key: string): void {
    let state = this.keys.get(key);
    if (!state) {
      state = { dirty: false, running: false, notBefore: 0, failures: 0, timer: undefined };
      this.keys.set(key, state);
    }
    state.dirty = true;
    this.schedule(key, state);
  }

  /** Nothing of the key is kept (a guild the bot left); a run under way finishes. */
  forget(key: string): void {
    const state = this.keys.get(key);
    if (!state) return;
    this.options.timers.clearTimeout(state.timer);
    this.keys.delete(key);
  }

  /** Resolves when no run is under way (tests and benchmarks). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  private schedule(key: string, state: KeyState): void {
    if (this.stopped || state.running || state.timer !== undefined || !state.dirty) return;
    const wait = Math.max(0, state.notBefore - this.options.clock());
    state.timer = this.options.timers.setTimeout(() => {
      state.timer = undefined;
      this.runNow(key, state);
    }, wait);
  }

  private runNow(key: string, state: KeyState): void {
    if (this.stopped) return;
    const { options } = this;
    state.running = true;
    state.dirty = false;
    const done = options
      .run(key)
      .then((sent) => {
        state.failures = 0;
        if (sent) state.notBefore = options.clock() + options.minGapMs;
      })
      .catch((error: unknown) => {
        state.failures += 1;
        state.dirty = true;
        const policy = { baseMs: options.retryAfterMs, capMs: options.retryCapMs ?? options.retryAfterMs * 60 };
        state.notBefore = options.clock() + backoffDelay(state.failures, policy);
        options.onError(key, error, { failures: state.failures, retryAt: state.notBefore });
      })
      .finally(() => {
        state.running = false;
        this.running.delete(done);
        if (this.keys.get(key) === state) this.schedule(key, state);
      });
    this.running.add(done);
  }
}
