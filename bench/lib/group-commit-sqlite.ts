import { KeyvSqlite, type KeyvSqliteOptions } from '@keyv/sqlite';

/**
 * PROTOTYPE of the change the benchmark report proposes for src/store/keyv-factory.ts; the bot does not use it.
 *
 * @keyv/sqlite commits every `set` on its own: with synchronous=FULL that is one fsync per delivery, and with
 * several sets in flight on one connection node-sqlite3 makes the main thread wait for the connection's mutex
 * while another statement fsyncs. Here at most one write statement is in flight per connection; sets that arrive
 * meanwhile are written together by the next multi-row INSERT (one implicit transaction, one fsync). Each set
 * still resolves only after the commit that holds it, so FULL keeps its promise, and a failed commit rejects
 * every set in it.
 */
export class GroupCommitSqlite extends KeyvSqlite {
  /** SQLite allows 32766 bound parameters; two per row. */
  private static readonly MAX_ROWS = 500;
  private queue: Array<{ key: string; value: unknown; resolve: () => void; reject: (error: unknown) => void }> = [];
  private writing = false;

  constructor(options: KeyvSqliteOptions) {
    super(options);
  }

  override set(key: string, value: unknown): Promise<void> {
    return new Promise((resolve, reject) => {
      this.queue.push({ key, value, resolve, reject });
      if (!this.writing) void this.drain();
    });
  }

  private async drain(): Promise<void> {
    this.writing = true;
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, GroupCommitSqlite.MAX_ROWS);
      const rows = batch.map(() => '(?, ?)').join(', ');
      const sql = `INSERT INTO ${String(this.opts.table)} (key, value) VALUES ${rows} ON CONFLICT(key) DO UPDATE SET value=excluded.value`;
      try {
        await this.query(sql, ...batch.flatMap((item) => [item.key, item.value]));
        for (const item of batch) item.resolve();
      } catch (error) {
        for (const item of batch) item.reject(error);
      }
    }
    this.writing = false;
  }
}
