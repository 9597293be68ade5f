import type pg from 'pg';

import type { RecordStore } from '../records.js';
import { inTransaction } from './transaction.js';

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

  update(kind: string, key: string, change: (current: unknown) => unknown): Promise<unknown> {
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
      await client.query(
        `INSERT INTO record (kind, key, value) VALUES ($1, $2, $3)
         ON CONFLICT (kind, key) DO UPDATE SET value = EXCLUDED.value`,
        [kind, key, JSON.stringify(next)],
      );
      return next;
    });
  }

  async delete(kind: string, key: string): Promise<void> {
    await this.pool.query('DELETE FROM record WHERE kind = $1 AND key = $2', [kind, key]);
  }

  async list(kind: string): Promise<Array<{ key: string; value: unknown }>> {
    const { rows } = await this.pool.query<{ key: string; value: unknown }>(
      'SELECT key, value FROM record WHERE kind = $1 ORDER BY key',
      [kind],
    );
    return rows;
  }

  async kinds(): Promise<string[]> {
    const { rows } = await this.pool.query<{ kind: string }>('SELECT DISTINCT kind FROM record ORDER BY kind');
    return rows.map((row) => row.kind);
  }
}
