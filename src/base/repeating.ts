import type { Timers } from './timers.js';

/**
 * Runs `tick` again and again, `everyMs` after the previous run ended (never two at once), from start() until
 * stop(); stop() waits for a run under way. A run that fails is given to `onError` and the next one still comes:
 * a job's store or Discord failing now and then must not end it.
 *
 * One chain at most, however start() and stop() interleave: at any moment there is either a timer waiting or a run
 * under way, never both and never two of either. A start() while a run is still under way (a stop() that has not
 * finished waiting for it) leaves the next run to that run's end, instead of setting a second timer beside it.
 */
export class Repeating {
  private timer: unknown;
  private running = false;
  private current: Promise<void> | undefined;

  constructor(
    private readonly timers: Timers,
    private readonly everyMs: number,
    private readonly tick: () => Promise<unknown>,
    private readonly onError: (error: unknown) => void,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.current === undefined) this.schedule();
  }

  async stop(): Promise<void> {
    this.running = false;
    this.timers.clearTimeout(this.timer);
    this.timer = undefined;
    await this.current;
  }

  /** Resolves when the run under way, if any, has finished (tests). */
  async settled(): Promise<void> {
    await this.current;
  }

  private schedule(): void {
    if (!this.running || this.timer !== undefined) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = undefined;
      this.current = this.tick()
        .then(() => undefined)
        .catch(this.onError)
        .finally(() => {
          this.current = undefined;
          this.schedule();
        });
    }, this.everyMs);
  }
}
