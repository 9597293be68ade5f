import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { recordStatements } from '../../src/features/record/store/record-statements.js';
import { setAsideStatements } from '../../src/store/set-aside-statements.js';
import { postgresDialect, sqliteDialect, type Sql, type SqlDialect } from '../../src/store/sql-dialect.js';
import { migrate } from '../../src/store/sqlite/migrate.js';
import { createMigratedDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';

/** The statements the record's writer and /status run each second or each command, with the index each must use. */
function checks(d: SqlDialect): Array<{ what: string; sql: Sql; params: unknown[]; index: string }> {
  const record = recordStatements(d);
  const aside = setAsideStatements(d);
  return [
    { what: 'what waits for the writer', sql: record.unrecorded, params: [200], index: 'delivery_recording' },
    { what: "/healthz's record lag", sql: record.oldestUnrecorded, params: [], index: 'delivery_recording' },
    { what: 'the items due', sql: aside.due, params: ['record-writer', 1, 200], index: 'set_aside_due' },
    { what: "a guild's items", sql: aside.ofGuild, params: ['222', 11], index: 'set_aside_by_guild' },
  ];
}

describe('the plans of the writer and of the items set aside', () => {
  it('on SQLite: each reads by its index, never the whole table', () => {
    const db = new Database(':memory:');
    migrate(db, STORE_MODULES);
    try {
      for (const check of checks(sqliteDialect)) {
        const plan = db
          .prepare<unknown[], { detail: string }>(`EXPLAIN QUERY PLAN ${check.sql.text}`)
          .all(...check.params)
          .map((row) => row.detail)
          .join('\n');
        expect(plan, check.what).toContain(`USING INDEX ${check.index}`);
        expect(plan, check.what).not.toMatch(/SCAN (delivery|set_aside)$/m);
      }
    } finally {
      db.close();
    }
  });

  describe.skipIf(!POSTGRES_URL)('on PostgreSQL', () => {
    let client: pg.Client;
    let drop: () => Promise<void>;
    beforeAll(async () => {
      const database = await createMigratedDatabase();
      drop = () => database.drop();
      client = new pg.Client({ connectionString: database.url });
      await client.connect();
    });
    afterAll(async () => {
      await client.end();
      await drop();
    });

    it('each can be read by its index (its predicate matches the partial index)', async () => {
      // Empty tables: the planner would scan them. With scans priced out, a plan on the index proves it serves.
      await client.query('SET enable_seqscan = off');
      for (const check of checks(postgresDialect)) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${check.sql.text}`, check.params);
        const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
        expect(plan, check.what).toContain(check.index);
        expect(plan, check.what).not.toContain('Seq Scan');
      }
    });
  });
});
