import type pg from 'pg';

import type { RecordStore, StoredRecord, TimeOf } from '../records.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { columns, type RowOf } from '../table-columns.js';
import { rowsOf } from './pg-sql.js';
import { inTransaction } from './transaction.js';

/** A document as list and listDue read it (its value parsed). */
const DOCUMENT = columns('record', 'key', 'value', 'at');
const VALUE = columns('record', 'value');
const KIND = columns('record', 'kind');
const VALUE_OF = d.select(VALUE).from<[string, string]>('record WHERE kind = ? AND key = ?');
const OF_KIND = d.select(DOCUMENT).from<[string]>('record WHERE kind = ? ORDER BY key');
// Reads the record_due index: only the documents asked for are visited, however many the kind has.
const DUE = d
  .select(DOCUMENT)
  .from<[string, number, number]>('record WHERE kind = ? AND at IS NOT NULL AND at <= ? ORDER BY at, key LIMIT ?');
const KINDS = d.sql<RowOf<typeof KIND>, []>(`SELECT DISTINCT ${KIND.text} FROM record ORDER BY kind`);

/** Documents in the `record` table; an update locks its document's key first, so updates never interleave. */
export class PostgresRecords implements RecordStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(kind: string, key: string): Promise<unknown> {
    return (await rowsOf(this.pool, VALUE_OF, [kind, key]))[0]?.value;
  }

  update(kind: string, key: string, change: (current: unknown) => unknown, timeOf?: TimeOf): Promise<unknown> {
    return inTransaction(this.pool, async (client) => {
      // The document may not exist yet, so a row lock cannot serialize its first writers: a key lock does.
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('bridge.record:' || $1 || ':' || $2, 0))`, [
        kind,
        key,
      ]);
      const next = change((await rowsOf(client, VALUE_OF, [kind, key]))[0]?.value);
      if (next === undefined) {
        await client.query('DELETE FROM record WHERE kind = $1 AND key = $2', [kind, key]);
        return next;
      }
      const at = timeOf?.(next) ?? null;
      await client.query(
        `INSERT INTO record (kind, key, value, at) VALUES ($1, $2, $3, $4)
         ON CONFLICT (kind, key) DO UPDATE SET value = EXCLUDED.value, at = EXCLUDED.at`,
        // BIGINT takes whole milliseconds.
        [kind, key, JSON.stringify(next), at === null ? null : Math.floor(at)],
      );
      return next;
    });
  }

  async delete(kind: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM record WHERE kind = $1 AND key = $2', [kind, key]);
  }

  async list(kind: string): Promise<StoredRecord[]> {
    return (await rowsOf(this.pool, OF_KIND, [kind])).map(toRecord);
  }

  async listDue(kind: string, until: number, limit: number): Promise<StoredRecord[]> {
    return (await rowsOf(this.pool, DUE, [kind, Math.floor(until), limit])).map(toRecord);
  }

  async sweepBefore(kind: string, before: number, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM record WHERE kind = $1 AND key IN
         (SELECT key FROM record WHERE kind = $1 AND at IS NOT NULL AND at < $2 ORDER BY at LIMIT $3)`,
      [kind, Math.ceil(before), limit],
    );
    return rowCount ?? 0;
  }

  async kinds(): Promise<string[]> {
    return (await rowsOf(this.pool, KINDS, [])).map((row) => row.kind);
  }
}

function toRecord(row: RowOf<typeof DOCUMENT, 'postgres'>): StoredRecord {
  return row.at === null ? { key: row.key, value: row.value } : { key: row.key, value: row.value, at: row.at };
}
