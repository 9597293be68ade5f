import type pg from 'pg';

import type { RecordStore, StoredRecord, TimeOf } from '../records.js';
import { inTransaction } from './transaction.js';

interface Row {
  key: string;
  value: unknown;
  at: number | null;
}

/** Documents in the `record` table; an update locks its document's key first, so updates never interleave. */
export class PostgresRecords implements RecordStore {
  constructor(private readonly pool: pg.Pool) {}

  async get(kind: string, key: string): Promise<unknown> {
    const { rows } = await this.pool.query<{ value: unknown }>(
      'SELECT value FROM record WHERE kind = $1 AND key = $2',
      [kind, key],
    );
    return rows[0]?.value;
  }

  update(kind: string, key: string, change: (current: unknown) => unknown, timeOf?: TimeOf): Promise<unknown> {
    return inTransaction(this.pool, async (client) => {
      // The document may not exist yet, so a row lock cannot serialize its first writers: a key lock does.
      await client.query(`SELECT pg_advisory_xact_lock(hashtextextended('bridge.record:' || $1 || ':' || $2, 0))`, [
        kind,
        key,
      ]);
      const { rows } = await client.query<{ value: unknown }>('SELECT value FROM record WHERE kind = $1 AND key = $2', [
        kind,
        key,
      ]);
      const next = change(rows[0]?.value);
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
    const { rows } = await this.pool.query<Row>('SELECT key, value, at FROM record WHERE kind = $1 ORDER BY key', [
      kind,
    ]);
    return rows.map(toRecord);
  }

  async listDue(kind: string, until: number, limit: number): Promise<StoredRecord[]> {
    // Reads the record_due index: only the documents asked for are visited, however many the kind has.
    const { rows } = await this.pool.query<Row>(
      `SELECT key, value, at FROM record WHERE kind = $1 AND at IS NOT NULL AND at <= $2
       ORDER BY at, key LIMIT $3`,
      [kind, Math.floor(until), limit],
    );
    return rows.map(toRecord);
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
    const { rows } = await this.pool.query<{ kind: string }>('SELECT DISTINCT kind FROM record ORDER BY kind');
    return rows.map((row) => row.kind);
  }
}

function toRecord(row: Row): StoredRecord {
  return row.at === null ? { key: row.key, value: row.value } : { key: row.key, value: row.value, at: row.at };
}
