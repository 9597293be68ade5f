import { KeyvSqlite, type KeyvSqliteOptions } from '@keyv/sqlite';

type Write =
  | { kind: 'set'; key: string; value: unknown; done: (error?: unknown) => void }
  | { kind: 'delete'; key: string; done: (error?: unknown) => void };

/** SQLite binds at most 32766 parameters; a set binds two. */
const MAX_WRITES_PER_STATEMENT = 500;

/**
 * @keyv/sqlite, with group commit. @keyv/sqlite commits every write on its own: under synchronous=FULL that
 * is one fsync per delivery, and while one statement fsyncs the next one blocks the main thread on the
 * connection's mutex. Here one write statement is in flight per connection at a time; writes that arrive
 * meanwhile go out together in the next statement (one transaction, one fsync). Every write still resolves
 * only after the commit that holds it, so the durability promise is unchanged; a failed commit rejects every
 * write in it. Writes reach SQLite in the order they reach this adapter (keyv's own async steps before the
 * adapter differ between set and delete: callers that need a set and a delete of one key in order await each).
 * Measured by `npm run bench -- store` and `npm run bench -- intake`.
 */
export class GroupCommitSqlite extends KeyvSqlite {
  private readonly queue: Write[] = [];
  private writing = false;

  constructor(options: KeyvSqliteOptions) {
    super(options);
  }

  override set(key: string, value: unknown): Promise<void> {
    return this.enqueue((done) => ({ kind: 'set', key, value, done }));
  }

  override async delete(key: string): Promise<boolean> {
    await this.enqueue((done) => ({ kind: 'delete', key, done }));
    return true;
  }

  private enqueue(make: (done: (error?: unknown) => void) => Write): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push(make((error) => (error === undefined ? resolve() : reject(toError(error)))));
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = takeRun(this.queue);
      try {
        await this.write(batch);
        for (const write of batch) write.done();
      } catch (error) {
        for (const write of batch) write.done(error);
      }
    }
    this.writing = false;
  }

  private async write(batch: Write[]): Promise<void> {
    const table = String(this.opts.table);
    if (batch[0]?.kind === 'delete') {
      const keys = [...new Set(batch.map((write) => write.key))];
      await this.query(`DELETE FROM ${table} WHERE key IN (${keys.map(() => '?').join(', ')})`, ...keys);
      return;
    }
    // One row per key, the last value wins: an upsert may not touch the same row twice in one statement.
    const rows = new Map<string, unknown>();
    for (const write of batch) if (write.kind === 'set') rows.set(write.key, write.value);
    const placeholders = [...rows.keys()].map(() => '(?, ?)').join(', ');
    await this.query(
      `INSERT INTO ${table} (key, value) VALUES ${placeholders} ON CONFLICT(key) DO UPDATE SET value=excluded.value`,
      ...[...rows].flat(),
    );
  }
}

/** Takes the longest run of writes of one kind from the front of the queue, up to one statement's worth. */
function takeRun(queue: Write[]): Write[] {
  const kind = queue[0]?.kind;
  let length = 0;
  while (length < queue.length && length < MAX_WRITES_PER_STATEMENT && queue[length]?.kind === kind) length += 1;
  return queue.splice(0, length);
}

/** node-sqlite3 rejects with Errors; anything else is wrapped so callers always get one. */
function toError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}
