import pg from 'pg';
import { describe, expect, it } from 'vitest';

import { describeTables, type ColumnKind } from '../../scripts/table-types.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { describeDigestsContract } from '../features/digest/digests-contract.js';
import { describeDutyRoleHoldersContract } from '../features/duty/duty-role-holders-contract.js';
import { describeCommunityRecordContract } from '../features/record/community-record-contract.js';
import { describeRecordFiguresContract } from '../features/record/record-figures-contract.js';
import { describeSessionFactsContract } from '../features/record/session-facts-contract.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { describeDocumentsContract } from './documents-contract.js';
import { describeGuildStoreContract } from './guild-store-contract.js';
import { describeHeldEntriesContract } from './held-entries-contract.js';
import { describeRoutingContract } from './routing-contract.js';
import { describeSetAsideContract } from './set-aside-contract.js';
import { describeStoreContract } from './store-contract.js';
import { describeStoreModulesContract } from './store-modules-contract.js';
import type { StoreUnderTest } from './store-under-test.js';

async function postgresUnderTest(): Promise<StoreUnderTest> {
  const database = await createTestDatabase();
  /** Another session, as an operator's tool would be: it changes the schema under the bot. */
  const onDatabase = async (sql: string) => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    open: (clock) => openStore(database.url, STORE_MODULES, clock),
    openWith: (modules, clock) => openStore(database.url, modules, clock),
    breakDeliveryWrites: () =>
      onDatabase(`
          CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
          CREATE TRIGGER refuse BEFORE INSERT ON delivery FOR EACH ROW EXECUTE FUNCTION refuse();`),
    healDeliveryWrites: () => onDatabase('DROP TRIGGER refuse ON delivery; DROP FUNCTION refuse();'),
    exec: onDatabase,
    refuseRows: (table, change, column, value) =>
      onDatabase(`
          CREATE FUNCTION refuse_${table}_${change}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the test refuses this ${table} row'; END $$;
          CREATE TRIGGER refuse_${change} BEFORE ${change} ON ${table} FOR EACH ROW
            WHEN (${change === 'INSERT' ? 'NEW' : 'OLD'}.${column} = ${pg.escapeLiteral(value)})
            EXECUTE FUNCTION refuse_${table}_${change}();`),
    allowRows: (table, change) =>
      onDatabase(`DROP TRIGGER refuse_${change} ON ${table}; DROP FUNCTION refuse_${table}_${change}();`),
    dispose: () => database.drop(),
  };
}

describe.skipIf(!POSTGRES_URL)('PostgreSQL', () => {
  describeStoreContract('PostgreSQL', postgresUnderTest);
  describeRoutingContract('PostgreSQL', postgresUnderTest);
  describeHeldEntriesContract('PostgreSQL', postgresUnderTest);
  describeGuildStoreContract('PostgreSQL', postgresUnderTest);
  describeDocumentsContract('PostgreSQL', postgresUnderTest);
  describeCommunityRecordContract('PostgreSQL', postgresUnderTest);
  describeDigestsContract('PostgreSQL', postgresUnderTest);
  describeSessionFactsContract('PostgreSQL', postgresUnderTest);
  describeDutyRoleHoldersContract('PostgreSQL', postgresUnderTest);
  describeRecordFiguresContract('PostgreSQL', postgresUnderTest);
  describeSetAsideContract('PostgreSQL', postgresUnderTest);
  describeStoreModulesContract('PostgreSQL', postgresUnderTest);
});

/**
 * PostgreSQL's column types for each kind of column the generated row types (src/store/tables.ts) know; both
 * integer types come back as numbers (bigint too: open-postgres-store reads it as one).
 */
const POSTGRES_TYPES: Record<ColumnKind, readonly string[]> = {
  integer: ['bigint', 'integer'],
  text: ['text'],
  boolean: ['boolean'],
  json: ['jsonb'],
};

describe.skipIf(!POSTGRES_URL)('the generated row types on PostgreSQL', () => {
  it('name columns PostgreSQL has too, with the same nullability and a type the engine returns as they say', async () => {
    const database = await createTestDatabase();
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      // Opening the store applies PostgreSQL's migrations.
      await (await openStore(database.url, STORE_MODULES, () => Date.now())).close();
      const { rows } = await client.query<{
        table_name: string;
        column_name: string;
        data_type: string;
        is_nullable: 'YES' | 'NO';
      }>(
        `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
         WHERE table_schema = current_schema()`,
      );
      const postgres = new Map(rows.map((row) => [`${row.table_name}.${row.column_name}`, row]));
      const drift: string[] = [];
      for (const table of describeTables()) {
        for (const column of table.columns) {
          const name = `${table.name}.${column.name}`;
          const found = postgres.get(name);
          if (!found) drift.push(`${name}: not in PostgreSQL`);
          else if ((found.is_nullable === 'YES') !== column.nullable) {
            drift.push(`${name}: ${column.nullable ? 'nullable' : 'NOT NULL'} in SQLite, not in PostgreSQL`);
          } else if (!POSTGRES_TYPES[column.kind].includes(found.data_type)) {
            drift.push(`${name}: ${column.kind} in the generated types, ${found.data_type} in PostgreSQL`);
          }
        }
      }
      expect(drift, 'the engines’ schemas differ (scripts/table-types.ts lists the columns they type apart)').toEqual(
        [],
      );
    } finally {
      await client.end();
      await database.drop();
    }
  });
});
