import type { Database, Statement } from 'better-sqlite3';

import type { DocumentStore, StoredDocument, TimeOf } from '../documents.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import { columns, type RowOf } from '../table-columns.js';
import { prepare } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** A document as list and listDue read it (its value JSON text). */
const DOCUMENT = columns('record', 'key', 'value', 'at');
const VALUE = columns('record', 'value');
const KIND = columns('record', 'kind');
type Row = RowOf<typeof DOCUMENT, 'sqlite'>;

/** Documents in the `record` table; an update is one job of the single writer, so it is atomic. */
export class SqliteDocuments implements DocumentStore {
  private readonly read: Statement<[string, string], RowOf<typeof VALUE, 'sqlite'>>;
  private readonly upsert: Statement<[string, string, string, number | null]>;
  private readonly remove: Statement<[string, string]>;
  private readonly ofKind: Statement<[string], Row>;
  private readonly due: Statement<[string, number, number], Row>;
  private readonly sweep: Statement<[string, string, number, number]>;
  private readonly kindsIn: Statement<[], RowOf<typeof KIND>>;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.read = prepare(db, d.select(VALUE).from<[string, string]>('record WHERE kind = ? AND key = ?'));
    this.upsert = db.prepare(
      `INSERT INTO record (kind, key, value, at) VALUES (?, ?, ?, ?)
       ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value, at = excluded.at`,
    );
    this.remove = db.prepare('DELETE FROM record WHERE kind = ? AND key = ?');
    this.ofKind = prepare(db, d.select(DOCUMENT).from<[string]>('record WHERE kind = ? ORDER BY key'));
    // Both read the record_due index: only the documents asked for are visited, however many the kind has.
    this.due = prepare(
      db,
      d
        .select(DOCUMENT)
        .from<[string, number, number]>(
          'record WHERE kind = ? AND at IS NOT NULL AND at <= ? ORDER BY at, key LIMIT ?',
        ),
    );
    this.sweep = db.prepare(
      `DELETE FROM record WHERE kind = ? AND key IN
         (SELECT key FROM record WHERE kind = ? AND at IS NOT NULL AND at < ? ORDER BY at LIMIT ?)`,
    );
    this.kindsIn = prepare(db, d.sql<RowOf<typeof KIND>, []>(`SELECT DISTINCT ${KIND.text} FROM record ORDER BY kind`));
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

  put(kind: string, documents: readonly StoredDocument[]): Promise<void> {
    return this.writes.run(() => {
      for (const { key, value, at } of documents) this.upsert.run(kind, key, JSON.stringify(value), at ?? null);
    });
  }

  getAll(kind: string, keys: readonly string[]): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    for (const key of keys) {
      const row = this.read.get(kind, key);
      if (row) found.set(key, this.parse(row.value));
    }
    return Promise.resolve(found);
  }

  delete(kind: string, key: string): Promise<void> {
    return this.writes.run(() => {
      this.remove.run(kind, key);
    });
  }

  list(kind: string): Promise<StoredDocument[]> {
    return Promise.resolve(this.ofKind.all(kind).map((row) => this.toRecord(row)));
  }

  listDue(kind: string, until: number, limit: number): Promise<StoredDocument[]> {
    return Promise.resolve(this.due.all(kind, until, limit).map((row) => this.toRecord(row)));
  }

  sweepBefore(kind: string, before: number, limit: number): Promise<number> {
    return this.writes.run(() => this.sweep.run(kind, kind, before, limit).changes);
  }

  kinds(): Promise<string[]> {
    return Promise.resolve(this.kindsIn.all().map((row) => row.kind));
  }

  private toRecord(row: Row): StoredDocument {
    const value = this.parse(row.value);
    return row.at === null ? { key: row.key, value } : { key: row.key, value, at: row.at };
  }

  private parse(text: string | undefined): unknown {
    return text === undefined ? undefined : JSON.parse(text);
  }
}
