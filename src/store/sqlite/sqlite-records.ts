import type { Database, Statement } from 'better-sqlite3';

import type { RecordStore } from '../records.js';
import type { WriteBatcher } from './write-batcher.js';

/** Documents in the `record` table; an update is one job of the single writer, so it is atomic. */
export class SqliteRecords implements RecordStore {
  private readonly read: Statement<[string, string], { value: string }>;
  private readonly upsert: Statement<[string, string, string]>;
  private readonly remove: Statement<[string, string]>;
  private readonly ofKind: Statement<[string], { key: string; value: string }>;

  constructor(
    private readonly db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.read = db.prepare('SELECT value FROM record WHERE kind = ? AND key = ?');
    this.upsert = db.prepare(
      'INSERT INTO record (kind, key, value) VALUES (?, ?, ?) ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value',
    );
    this.remove = db.prepare('DELETE FROM record WHERE kind = ? AND key = ?');
    this.ofKind = db.prepare('SELECT key, value FROM record WHERE kind = ? ORDER BY key');
  }

  get(kind: string, key: string): Promise<unknown> {
    return Promise.resolve(this.parse(this.read.get(kind, key)?.value));
  }

  update(kind: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
    return this.writes.run(() => {
      const next = change(this.parse(this.read.get(kind, key)?.value));
      this.upsert.run(kind, key, JSON.stringify(next));
      return next;
    });
  }

  delete(kind: string, key: string): Promise<void> {
    return this.writes.run(() => {
      this.remove.run(kind, key);
    });
  }

  list(kind: string): Promise<Array<{ key: string; value: unknown }>> {
    return Promise.resolve(this.ofKind.all(kind).map((row) => ({ key: row.key, value: this.parse(row.value) })));
  }

  kinds(): Promise<string[]> {
    const rows = this.db.prepare('SELECT DISTINCT kind FROM record ORDER BY kind').all() as Array<{ kind: string }>;
    return Promise.resolve(rows.map((row) => row.kind));
  }

  private parse(text: string | undefined): unknown {
    return text === undefined ? undefined : JSON.parse(text);
  }
}
