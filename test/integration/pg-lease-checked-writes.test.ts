import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { LeaseLostError } from '../../src/store/deliveries.js';
import { openStore } from '../../src/store/open-store.js';
import { LeaseCheckedWrites } from '../../src/store/postgres/lease-checked-writes.js';
import { SQL } from '../../src/store/postgres/pg-sql.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A migrated database with partition 7 leased at epoch 1 and a channel with 3 failures; two connections to it. */
async function leasedDatabase() {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const store = await openStore(database.url, STORE_MODULES);
  await store.close();
  const connect = async () => {
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    cleanups.push(() => client.end());
    return client;
  };
  const owner = await connect();
  const next = await connect();
  await owner.query('INSERT INTO feed_lease (partition, epoch) VALUES (7, 1)');
  await owner.query(
    `INSERT INTO channel_state (channel_id, guild_id, failures, retry_at) VALUES ('c1', 'g1', 3, 1000), ('c2', 'g1', 2, 1000)`,
  );
  const failuresOf = async (channelId: string) =>
    (await owner.query<{ failures: number }>('SELECT failures FROM channel_state WHERE channel_id = $1', [channelId]))
      .rows[0]?.failures;
  return { owner, next, failuresOf };
}

describe.skipIf(!POSTGRES_URL)("a lane's writes checked against its lease in one statement (PostgreSQL)", () => {
  const clearTwo = new LeaseCheckedWrites([SQL.clearFailures, SQL.clearFailures]);

  it('makes every write under the current lease and says how many rows each changed', async () => {
    const { owner, failuresOf } = await leasedDatabase();
    expect(await clearTwo.run(owner, { partition: 7, epoch: 1 }, [['c1'], ['nowhere']])).toEqual([1, 0]);
    expect(await failuresOf('c1')).toBe(0);
    // Without a lease (a caller outside the feed), the writes are made unchecked.
    expect(await clearTwo.run(owner, undefined, [['nowhere'], ['c2']])).toEqual([0, 1]);
    expect(await failuresOf('c2')).toBe(0);
  });

  it('makes none and throws under a lease another process has taken since, or one never taken', async () => {
    const { owner, next, failuresOf } = await leasedDatabase();
    await next.query('UPDATE feed_lease SET epoch = epoch + 1 WHERE partition = 7');
    await expect(clearTwo.run(owner, { partition: 7, epoch: 1 }, [['c1'], ['c2']])).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    await expect(clearTwo.run(owner, { partition: 8, epoch: 1 }, [['c1'], ['c2']])).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    expect([await failuresOf('c1'), await failuresOf('c2')]).toEqual([3, 2]);
  });

  it("holds the lease until its transaction ends: the next owner's epoch bump waits, then the old lease is refused", async () => {
    const { owner, next, failuresOf } = await leasedDatabase();
    await owner.query('BEGIN');
    expect(await clearTwo.run(owner, { partition: 7, epoch: 1 }, [['c1'], ['c2']])).toEqual([1, 1]);
    await next.query("SET lock_timeout = '200ms'");
    await expect(next.query('UPDATE feed_lease SET epoch = epoch + 1 WHERE partition = 7')).rejects.toMatchObject({
      code: '55P03',
    });
    await owner.query('COMMIT');
    await next.query('UPDATE feed_lease SET epoch = epoch + 1 WHERE partition = 7');
    expect([await failuresOf('c1'), await failuresOf('c2')]).toEqual([0, 0]);
    await expect(clearTwo.run(owner, { partition: 7, epoch: 1 }, [['c1'], ['c2']])).rejects.toBeInstanceOf(
      LeaseLostError,
    );
  });

  it('refuses a statement it cannot add the check to', () => {
    expect(() => new LeaseCheckedWrites([SQL.noteFailure])).toThrow(/must end in its WHERE/);
  });
});
