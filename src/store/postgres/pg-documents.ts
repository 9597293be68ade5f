import type pg from 'pg';

import type { DocumentStore, StoredDocument, TimeOf } from '../documents.js';
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

const UPSERT = `INSERT INTO record (kind, key, value, at) VALUES ($1, $2, $3, $4)
  ON CONFLICT (kind, key) DO UPDATE SET value = EXCLUDED.value, at = EXCLUDED.at`;
/** The documents come as one JSON array of {key, value, at}: one statement, whatever their number. */
const PUT = `INSERT INTO record (kind, key, value, at)
  SELECT $1, d.key, d.value, d.at FROM jsonb_to_recordset($2::jsonb) AS d(key TEXT, value JSONB, at BIGINT)
  ON CONFLICT (kind, key) DO UPDATE SET value = EXCLUDED.value, at = EXCLUDED.at`;

/** A document's time as its BIGINT column takes it: whole milliseconds, or null for none. */
function wholeMs(at: number | null | undefined): number | null {
  return at === null || at === undefined ? null : Math.floor(at);
}

/** Documents in the `record` table; an update locks its document's key first, so updates never interleave. */
export class PostgresDocuments implements DocumentStore {
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
      await client.query(UPSERT, [kind, key, JSON.stringify(next), wholeMs(timeOf?.(next))]);
      return next;
    });
  }

  async put(kind: string, documents: readonly StoredDocument[]): Promise<void> {
    // One row per key (the later document stands): an upsert may not change a row twice.
    const latest = new Map(documents.map((document) => [document.key, document]));
    if (latest.size === 0) return;
    // BIGINT takes whole milliseconds.
    const rows = [...latest.values()].map(({ key, value, at }) => ({ key, value, at: wholeMs(at) }));
    await this.pool.query(PUT, [kind, JSON.stringify(rows)]);
  }

  async getAll(kind: string, keys: readonly string[]): Promise<Map<string, unknown>> {
    if (keys.length === 0) return new Map();
    const { rows } = await this.pool.query<{ key: string; value: unknown }>(
      'SELECT key, value FROM record WHERE kind = $1 AND key = ANY($2::text[])',
      [kind, [...keys]],
    );
    return new Map(rows.map((row) => [row.key, row.value]));
  }

  async delete(kind: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM record WHERE kind = $1 AND key = $2', [kind, key]);
  }

  async list(kind: string): Promise<StoredDocument[]> {
    return (await rowsOf(this.pool, OF_KIND, [kind])).map(toRecord);
  }

  async listDue(kind: string, until: number, limit: number): Promise<StoredDocument[]> {
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

function toRecord(row: RowOf<typeof DOCUMENT, 'postgres'>): StoredDocument {
  return row.at === null ? { key: row.key, value: row.value } : { key: row.key, value: row.value, at: row.at };
}
