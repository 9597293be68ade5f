import type { Database, Statement } from 'better-sqlite3';

import type { RecordStore, StoredRecord, TimeOf } from '../records.js';
import type { WriteBatcher } from './write-batcher.js';

interface Row {
  key: string;
  value: string;
  at: number | null;
}

/** Documents in the `record` table; an update is one job of the single writer, so it is atomic. */
export class SqliteRecords implements RecordStore {
  private readonly read: Statement<[string, string], { value: string }>;
  private readonly upsert: Statement<[string, string, string, number | null]>;
  private readonly remove: Statement<[string, string]>;
  private readonly ofKind: Statement<[string], Row>;
  private readonly due: Statement<[string, number, number], Row>;
  private readonly sweep: Statement<[string, string, number, number]>;

  constructor(
    private readonly db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.read = db.prepare('SELECT value FROM record WHERE kind = ? AND key = ?');
    this.upsert = db.prepare(
      `INSERT INTO record (kind, key, value, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, at = excluded.at`,
    );
    this.remove = db.prepare('DELETE FROM record WHERE kind = ? AND key = ?');
    this.ofKind = db.prepare('SELECT key, value, at FROM record WHERE kind = ? ORDER BY key');
    // Both read the record_due index: only the documents asked for are visited, however many the kind has.
    this.due = db.prepare(
      'SELECT key, value, at FROM record WHERE kind = ? AND at IS NOT NULL AND at <= ? ORDER BY at, key LIMIT ?',
    );
    this.sweep = db.prepare(
      `DELETE FROM record WHERE kind = ? AND key IN
         (SELECT key FROM record WHERE kind = ? AND at IS NOT NULL AND at < ? ORDER BY at LIMIT ?)`,
    );
  }

  get(kind: string, key: string): Promise<unknown> {
    return Promise.resolve(this.parse(this.read.get(kind, key)?.value));
  }

  update(kind: string, key: string, change: (current: unknown) => unknown, timeOf?: TimeOf): Promise<unknown> {
    return this.writes.run(() => {
      const next = change(this.parse(this.read.get(kind, key)?.value));
      if (next === undefined) this.remove.run(kind, key);
      else this.upsert.run(kind, key, JSON.stringify(next), timeOf?.(next) ?? null);
      return next;
    });
  }

  delete(kind: string, key: string): Promise<void> {
    return this.writes.run(() => {
      this.remove.run(kind, key);
    });
  }

  list(kind: string): Promise<StoredRecord[]> {
    return Promise.resolve(this.ofKind.all(kind).map((row) => this.toRecord(row)));
  }

  listDue(kind: string, until: number, limit: number): Promise<StoredRecord[]> {
    return Promise.resolve(this.due.all(kind, until, limit).map((row) => this.toRecord(row)));
  }

  sweepBefore(kind: string, before: number, limit: number): Promise<number> {
    return this.writes.run(() => this.sweep.run(kind, kind, before, limit).changes);
  }

  kinds(): Promise<string[]> {
    const rows = this.db.prepare('SELECT DISTINCT kind FROM record ORDER BY kind').all() as Array<{ kind: string }>;
    return Promise.resolve(rows.map((row) => row.kind));
  }

  private toRecord(row: Row): StoredRecord {
    const value = this.parse(row.value);
    return row.at === null ? { key: row.key, value } : { key: row.key, value, at: row.at };
  }

  private parse(text: string | undefined): unknown {
    return text === undefined ? undefined : JSON.parse(text);
  }
}
