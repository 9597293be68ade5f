import pg from 'pg';
import { describe } from 'vitest';

import { openStore } from '../../src/store/open-store.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { describeCommunityRecordContract } from './community-record-contract.js';
import { describeStoreContract, type StoreUnderTest } from './store-contract.js';

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
    open: (clock) => openStore(database.url, clock),
    breakDeliveryWrites: () =>
      onDatabase(`
          CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'disk full'; END $$;
          CREATE TRIGGER refuse BEFORE INSERT ON delivery FOR EACH ROW EXECUTE FUNCTION refuse();`),
    healDeliveryWrites: () => onDatabase('DROP TRIGGER refuse ON delivery; DROP FUNCTION refuse();'),
    dispose: () => database.drop(),
  };
}

describe.skipIf(!POSTGRES_URL)('PostgreSQL', () => {
  describeStoreContract('PostgreSQL', postgresUnderTest);
  describeCommunityRecordContract('PostgreSQL', postgresUnderTest);
});
