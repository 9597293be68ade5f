import type { Database } from 'better-sqlite3';

import type { LocalSignals, StoreSignal } from '../signals.js';

/** What a write may do besides its statements: say what to publish once its transaction committed. */
export interface WriteContext {
  afterCommit(signal: StoreSignal): void;
}

/** The most turns of the event loop a batch waits for more writes (a bound on the wait each write adds). */
const MAX_TURNS_HELD = 6;

type Outcome = { ok: true; value: unknown } | { ok: false; error: Error };

/** What a batch's committed run gave: each write's outcome, in order, and the signals to publish. */
interface BatchRun {
  outcomes: Outcome[];
  signals: StoreSignal[];
}

interface Job {
  work: (tx: WriteContext) => unknown;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

/**
 * Group commit over one better-sqlite3 connection. Writes asked for in the same moment run together in ONE
 * transaction, so under synchronous=FULL they share one fsync; each write still resolves only after that commit,
 * so the durability promise is that of a write of its own. A write that throws is undone alone and rejects alone,
 * the others commit. A failed commit rejects every write of the batch (none of them happened).
 *
 * A batch is held open while writes keep arriving: it commits at the first turn of the event loop that added no
 * write to it, or after MAX_TURNS_HELD turns. Under load, the requests read while the last batch's fsync blocked
 * the thread join the next batch instead of committing in a batch of their own (the intake's deliveries per
 * fsync went from 5.0 to 7.3 with 10 connections; docs/benchmarks.md, issue 48).
 *
 * Each batch first runs its writes one after the other in its transaction, without a savepoint each (two
 * statements a write saved); only if one throws is the whole transaction undone and the batch run again, each
 * write in a savepoint of its own. So a write's work may run twice, its first run undone: it must do nothing but
 * its statements and `tx.afterCommit`, which is announced only for the run that committed.
 *
 * Statements run synchronously on the main thread (a few µs each); the commit's fsync blocks it for about
 * 0.2 ms here, once per batch, not once per write. `npm run bench -- store` measures it.
 */
export class WriteBatcher {
  private queue: Job[] = [];
  private scheduled = false;
  /** Writes queued at the batch's last check, and the turns it has been held open since its first write. */
  private seen = 0;
  private turnsHeld = 0;
  /**
   * The batch's transaction and each write's savepoint, made once: better-sqlite3 builds each transaction
   * function with four wrappers and defines their properties one by one, which cost a delivery's write about
   * 6 µs of its 27 of CPU (without the fsync) when they were made per write and per batch.
   */
  private readonly runWithoutSavepoints: (batch: Job[]) => BatchRun;
  private readonly runEachInSavepoint: (batch: Job[]) => BatchRun;
  private readonly runInSavepoint: (job: Job, own: StoreSignal[]) => unknown;

  constructor(
    db: Database,
    private readonly signals: LocalSignals,
  ) {
    // Nested inside the batch's transaction, a transaction function is a savepoint: a job that throws is undone alone.
    this.runInSavepoint = db.transaction((job: Job, own: StoreSignal[]) =>
      job.work({ afterCommit: (signal) => own.push(signal) }),
    );
    const eachInSavepoint = db.transaction((batch: Job[]): BatchRun => {
      const ran: BatchRun = { outcomes: [], signals: [] };
      for (const job of batch) {
        const own: StoreSignal[] = [];
        try {
          ran.outcomes.push({ ok: true, value: this.runInSavepoint(job, own) });
          ran.signals.push(...own);
        } catch (error) {
          ran.outcomes.push({ ok: false, error: toError(error) });
        }
      }
      return ran;
    });
    const oneAfterTheOther = db.transaction((batch: Job[]): BatchRun => {
      const ran: BatchRun = { outcomes: [], signals: [] };
      const tx: WriteContext = { afterCommit: (signal) => ran.signals.push(signal) };
      for (const job of batch) {
        try {
          ran.outcomes.push({ ok: true, value: job.work(tx) });
        } catch {
          // Its error is heard again when the batch runs with savepoints: this one only undoes the transaction.
          throw new WriteThrew();
        }
      }
      return ran;
    });
    this.runWithoutSavepoints = (batch) => oneAfterTheOther.immediate(batch);
    this.runEachInSavepoint = (batch) => eachInSavepoint.immediate(batch);
  }

  /** Runs `work` in the next batch's transaction; resolves with its result once the batch committed. */
  run<T>(work: (tx: WriteContext) => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        this.seen = 0;
        this.turnsHeld = 0;
        setImmediate(this.check);
      }
    });
  }

  /** At each turn's check phase: holds the batch open one more turn if the last one added writes to it. */
  private readonly check = (): void => {
    if (!this.scheduled) return; // flushed meanwhile (the store closing)
    if (this.queue.length > this.seen && this.turnsHeld < MAX_TURNS_HELD) {
      this.seen = this.queue.length;
      this.turnsHeld += 1;
      setImmediate(this.check);
      return;
    }
    this.flush();
  };

  /** Runs every queued write now (closing the store flushes what is left). */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    let ran: BatchRun;
    try {
      ran = this.commit(batch);
    } catch (error) {
      const failure = toError(error);
      for (const job of batch) job.reject(failure);
      return;
    }
    batch.forEach((job, i) => {
      const outcome = ran.outcomes[i];
      if (outcome?.ok) job.resolve(outcome.value);
      else job.reject(outcome?.error ?? new Error('write lost'));
    });
    for (const signal of ran.signals) this.signals.publish(signal);
  }

  /**
   * Runs and commits the batch: its writes one after the other; if one throws, the transaction is undone whole and
   * the batch runs again, each write alone in a savepoint, so the one that throws goes alone. Throws if the
   * transaction itself fails (BEGIN or COMMIT): then none of the writes happened.
   */
  private commit(batch: Job[]): BatchRun {
    try {
      return this.runWithoutSavepoints(batch);
    } catch (error) {
      if (!(error instanceof WriteThrew)) throw error;
    }
    return this.runEachInSavepoint(batch);
  }
}

/** A write of the batch threw (not the transaction's BEGIN or COMMIT). */
class WriteThrew extends Error {}

function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
