import pg from 'pg';
import { inject } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { migrate } from '../../src/store/postgres/migrate.js';
import { createDatabase, type PostgresDatabase } from './postgres-cluster.js';

/** The run's throwaway cluster (test/setup/postgres.ts); empty when PostgreSQL tests are skipped. */
export const POSTGRES_URL = postgresUrlOfTheRun();

/**
 * The cluster's URL the suite's global setup provides. `npm run test:unit` (vitest.unit.config.ts) has no such
 * setup and provides nothing: a test that needs PostgreSQL there is not a unit test, and fails saying so rather
 * than skipping its PostgreSQL half unseen.
 */
function postgresUrlOfTheRun(): string {
  const url = inject('postgresUrl') as string | undefined;
  if (url === undefined) {
    throw new Error(
      'this test needs PostgreSQL, which the unit run (npm run test:unit) does not start: a test of a feature that ' +
        'needs it goes in test/features/<name>/integration/ (or e2e/), which npm test runs',
    );
  }
  return url;
}

/** A database of its own in the run's cluster, for one test or suite; drop() removes it. */
export function createTestDatabase(): Promise<PostgresDatabase> {
  if (!POSTGRES_URL) return Promise.reject(new Error('no PostgreSQL cluster in this run'));
  return createDatabase(POSTGRES_URL);
}

/** A database of its own with the bot's schema (what the leases' tests keep their epochs in); drop() removes it. */
export async function createMigratedDatabase(): Promise<PostgresDatabase> {
  const database = await createTestDatabase();
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    await migrate(client, STORE_MODULES);
  } finally {
    await client.end();
  }
  return database;
}

/** Ends every session of `applicationName` on the server, as a crash of the process holding them would. */
export async function terminateSessions(url: string, applicationName: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
      [applicationName],
    );
  } finally {
    await client.end();
  }
}
