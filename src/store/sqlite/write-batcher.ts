import type { Database } from 'better-sqlite3';

import type { LocalSignals, StoreSignal } from '../signals.js';

/** What a write may do besides its statements: say what to publish once its transaction committed. */
export interface WriteContext {
  afterCommit(signal: StoreSignal): void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: Error };

interface Job {
  work: (tx: WriteContext) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Group commit over one better-sqlite3 connection. Writes asked for in the same turn of the event loop run
 * together in ONE transaction, so under synchronous=FULL they share one fsync; each write still resolves only
 * after that commit, so the durability promise is that of a write of its own. Each write runs in a savepoint
 * of its own: one that throws is rolled back alone and rejects alone, the others commit. A failed commit
 * rejects every write of the batch (none of them happened).
 *
 * Statements run synchronously on the main thread (a few µs each); the commit's fsync blocks it for about
 * 0.2 ms here, once per batch, not once per write. `npm run bench -- store` measures it.
 */
export class WriteBatcher {
  private queue: Job[] = [];
  private scheduled = false;
  /**
   * The batch's transaction and each write's savepoint, made once: better-sqlite3 builds each transaction
   * function with four wrappers and defines their properties one by one, which cost a delivery's write about
   * 6 µs of its 27 of CPU (without the fsync) when they were made per write and per batch.
   */
  private readonly runBatch: (batch: Job[], outcomes: Outcome[], signals: StoreSignal[]) => void;
  private readonly runInSavepoint: (job: Job, own: StoreSignal[]) => unknown;

  constructor(
    db: Database,
    private readonly signals: LocalSignals,
  ) {
    // Nested inside the batch's transaction, a transaction function is a savepoint: a job that throws is undone alone.
    this.runInSavepoint = db.transaction((job: Job, own: StoreSignal[]) =>
      job.work({ afterCommit: (signal) => own.push(signal) }),
    );
    const inOneTransaction = db.transaction((batch: Job[], outcomes: Outcome[], signals: StoreSignal[]) => {
      for (const job of batch) {
        const own: StoreSignal[] = [];
        try {
          outcomes.push({ ok: true, value: this.runInSavepoint(job, own) });
          signals.push(...own);
        } catch (error) {
          outcomes.push({ ok: false, error: toError(error) });
        }
      }
    });
    this.runBatch = (batch, outcomes, signals) => inOneTransaction.immediate(batch, outcomes, signals);
  }

  /** Runs `work` in the next batch's transaction; resolves with its result once the batch committed. */
  run<T>(work: (tx: WriteContext) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Runs every queued write now (closing the store flushes what is left). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    const signals: StoreSignal[] = [];
    const outcomes: Outcome[] = [];
    try {
      this.runBatch(batch, outcomes, signals);
    } catch (error) {
      const failure = toError(error);
      for (const job of batch) job.reject(failure);
      return;
    }
    batch.forEach((job, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error ?? new Error('write lost'));
    });
    for (const signal of signals) this.signals.publish(signal);
  }
}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
