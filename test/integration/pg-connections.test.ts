import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { StartupError } from '../../src/base/startup-error.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { STATEMENT_TIMEOUT_MS } from '../../src/store/postgres/connection-timeouts.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!POSTGRES_URL)('PostgreSQL timeouts', () => {
  it('fail a statement stuck behind a lock after the statement timeout, instead of waiting for ever', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const store = await openStore(database.url, STORE_MODULES);
    cleanups.push(() => store.close());
    // Another session (an admin's migration, a stuck transaction) holds the table.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE hook IN ACCESS EXCLUSIVE MODE');
    cleanups.push(() => holder.query('ROLLBACK'));

    const started = Date.now();
    await expect(store.hooks.get('ffffffffffffffffffffffffffffffff')).rejects.toThrow(
      'canceling statement due to statement timeout',
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(STATEMENT_TIMEOUT_MS - 100);
  }, 30_000);
});

describe.skipIf(!POSTGRES_URL)('PostgreSQL refusing the connection at start', () => {
  it('is one line naming PostgreSQL, host:port, the server reason and STORE_URL, without the password', async () => {
    const url = new URL(POSTGRES_URL);
    url.password = 'store-password-0123456789';
    url.pathname = '/no_such_database';

    const error = await openStore(url.toString(), STORE_MODULES).then(
      () => undefined,
      (refusal: unknown) => refusal,
    );
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toBe(
      `cannot connect to PostgreSQL at 127.0.0.1:${url.port} (database "no_such_database" does not exist): check that the server runs and accepts connections there, and STORE_URL`,
    );
  });
});
