import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { PARTITIONS } from '../../src/store/coordination.js';
import { PostgresLeases } from '../../src/store/postgres/pg-leases.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createMigratedDatabase, POSTGRES_URL, terminateSessions } from '../helpers/postgres-database.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean | Promise<boolean>, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return Date.now() - started;
}

/** A database of its own with the bot's schema, dropped after the test. */
async function leaseDatabase() {
  const database = await createMigratedDatabase();
  cleanups.push(() => database.drop());
  return database;
}

/** A feed process's leases, without a feed: it only records what it holds. */
function leasesOn(
  url: string,
  name: string,
  timing: { rebalanceMs: number; idleTimeoutMs: number; keepTakenMs?: number },
) {
  const leases = new PostgresLeases(
    { connectionString: url, application_name: name },
    { logger: captureLogs().logger, wantsGateway: true, ...timing },
  );
  cleanups.push(() => leases.stop());
  return leases;
}

const noFeed = { gained: () => undefined, losing: () => Promise.resolve() };

/** Which sessions hold each partition lock, from the server itself. */
async function holders(url: string): Promise<Map<number, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ objid: number; n: number }>(
      `SELECT objid::int AS objid, count(*)::int AS n FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND classid = $1 AND objsubid = 2
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       GROUP BY objid`,
      [0x42524450],
    );
    return new Map(rows.map((row) => [row.objid, row.n]));
  } finally {
    await client.end();
  }
}

describe.skipIf(!POSTGRES_URL)('feed partitions held through PostgreSQL advisory locks', () => {
  it('splits the partitions between two processes, never both on one, and hands a killed one’s over within seconds', async () => {
    const database = await leaseDatabase();
    const timing = { rebalanceMs: 200, idleTimeoutMs: 5_000 };
    const a = leasesOn(database.url, 'lease-a', timing);
    const b = leasesOn(database.url, 'lease-b', timing);
    await a.start(noFeed);
    await b.start(noFeed);
    await until(
      () => a.partitions.length === PARTITIONS / 2 && b.partitions.length === PARTITIONS / 2,
      10_000,
      'an even split',
    );
    expect(a.partitions.filter((partition) => b.partitions.includes(partition))).toEqual([]);
    const held = await holders(database.url);
    expect(held.size).toBe(PARTITIONS);
    expect([...held.values()].every((n) => n === 1)).toBe(true);

    // As a SIGKILL would: the session ends without a goodbye; the server frees its locks at once.
    await terminateSessions(database.url, 'lease-a');
    const tookMs = await until(() => b.partitions.length === PARTITIONS, 5_000, 'the killed one’s partitions taken');
    expect(tookMs).toBeLessThan(5_000);
  });

  it('keeps its session while the lanes of partitions it gives back take longer than the idle-session timeout', async () => {
    const database = await leaseDatabase();
    // Partitions are given back 0.5 s after they were taken (not 3 s): the lanes' 2.5 s are what this test is about.
    const timing = { rebalanceMs: 200, idleTimeoutMs: 1_000, keepTakenMs: 500 };
    const logs = captureLogs();
    // Its sends take 2.5 s to finish (a slow Discord, a long rate-limit queue): well past the idle timeout.
    const slow = new PostgresLeases(
      { connectionString: database.url, application_name: 'lease-slow' },
      { logger: logs.logger, wantsGateway: true, ...timing },
    );
    cleanups.push(() => slow.stop());
    await slow.start({ gained: () => undefined, losing: () => new Promise((resolve) => setTimeout(resolve, 2_500)) });
    expect(slow.partitions).toHaveLength(PARTITIONS);
    const other = leasesOn(database.url, 'lease-other', timing);
    await other.start(noFeed);
    await until(() => other.partitions.length === PARTITIONS / 2, 8_000, 'half of the partitions handed over');
    expect(slow.partitions).toHaveLength(PARTITIONS / 2);
    expect(logs.text()).not.toContain('lease session');
  });

  it('takes the partitions of a silent process after the idle-session timeout', async () => {
    const database = await leaseDatabase();
    // It takes its share, then never queries again (a hung process); the server ends its session after 1 s.
    const silent = leasesOn(database.url, 'lease-silent', { rebalanceMs: 600_000, idleTimeoutMs: 1_000 });
    await silent.start(noFeed);
    expect(silent.partitions).toHaveLength(PARTITIONS);
    const healthy = leasesOn(database.url, 'lease-healthy', { rebalanceMs: 200, idleTimeoutMs: 5_000 });
    await healthy.start(noFeed);
    expect(healthy.partitions).toHaveLength(0);
    // The silent one stops claiming its guilds on its own, before the server frees them for the other.
    const guildId = '222222222222222222';
    let silentLetGoAt: number | undefined;
    let healthyTookAt: number | undefined;
    await until(
      () => {
        if (!silent.owns(guildId)) silentLetGoAt ??= Date.now();
        if (healthy.owns(guildId)) healthyTookAt ??= Date.now();
        return healthy.partitions.length === PARTITIONS;
      },
      8_000,
      'the silent one’s partitions taken',
    );
    expect(silentLetGoAt).toBeLessThan(healthyTookAt ?? 0);
  });
});
