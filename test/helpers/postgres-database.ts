import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The run's throwaway cluster (test/setup/postgres.ts); empty when PostgreSQL tests are skipped. */
export const POSTGRES_URL = inject('postgresUrl');

/** A database of its own in the run's cluster, for one test or suite; drop() removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  if (!POSTGRES_URL) throw new Error('no PostgreSQL cluster in this run');
  const name = `bridge_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = POSTGRES_URL.replace(/\/postgres$/, `/${name}`);
  return {
    url,
    async drop() {
      const client = new pg.Client({ connectionString: POSTGRES_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
