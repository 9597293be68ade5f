/**
 * Work per key, one run at a time: asked for while a run of its key is under way, it runs once more after it,
 * however many times it was asked meanwhile (each run reads the state of that moment, so one run stands for all
 * the asks). A burst of asks costs at most one run under way and one waiting per key, and nothing is kept for a
 * key once its runs are done. Unlike CoalescedRuns (coalesced-runs.ts) it has no timers: the next run starts as
 * soon as the last one ends.
 */
export class RerunPerKey {
  private readonly running = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();

  /** `work` must not reject: it logs its own failures. */
  constructor(private readonly work: (key: string) => Promise<void>) {}

  /** Runs the key's work, or once more after the run under way; resolves when the key's runs are done. */
  run(key: string): Promise<void> {
    const current = this.running.get(key);
    if (current) {
      this.again.add(key);
      return current;
    }
    const run = (async () => {
      do {
        this.again.delete(key);
        await this.work(key);
      } while (this.again.has(key));
    })().finally(() => this.running.delete(key));
    this.running.set(key, run);
    return run;
  }

  /** Resolves when no run of any key is under way (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()]);
  }
}
