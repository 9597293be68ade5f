import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import type { ShardListener } from '../../src/store/coordination.js';
import { takeIdentifyTurn } from '../../src/store/postgres/pg-identify-turns.js';
import { PostgresLeases } from '../../src/store/postgres/pg-leases.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createMigratedDatabase, POSTGRES_URL, terminateSessions } from '../helpers/postgres-database.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What a feed process's shard connections are told, recorded: which it has open now, and each event in order. */
class RecordedShards implements ShardListener {
  readonly open = new Set<number>();
  readonly events: string[] = [];
  count: number | undefined;

  constructor(
    private readonly recommendation: number,
    /** How long closing a shard's connection takes (its lock is held until then). */
    private readonly closeMs = 0,
    private readonly timeline?: Array<{ at: number; what: string }>,
  ) {}

  recommended(): Promise<number> {
    return Promise.resolve(this.recommendation);
  }

  gained(shards: readonly number[], count: number): void {
    this.count = count;
    for (const shard of shards) {
      this.open.add(shard);
      this.events.push(`+${shard}`);
      this.timeline?.push({ at: performance.now(), what: `opened ${shard}` });
    }
  }

  async losing(shards: readonly number[]): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.closeMs));
    for (const shard of shards) {
      this.open.delete(shard);
      this.events.push(`-${shard}`);
      this.timeline?.push({ at: performance.now(), what: `closed ${shard}` });
    }
  }
}

const noFeed = { gained: () => undefined, losing: () => Promise.resolve() };
const TIMING = { rebalanceMs: 200, idleTimeoutMs: 5_000 };

async function shardDatabase() {
  const database = await createMigratedDatabase();
  cleanups.push(() => database.drop());
  return database;
}

async function startLeases(url: string, name: string, shards: RecordedShards) {
  const leases = new PostgresLeases(
    { connectionString: url, application_name: name },
    { logger: captureLogs().logger, wantsGateway: true, shards, ...TIMING },
  );
  cleanups.push(() => leases.stop());
  await leases.start(noFeed);
  return leases;
}

/** Every shard of `count` open in exactly one of the processes. */
function expectEachOpenOnce(processes: readonly RecordedShards[], count: number): void {
  const open = processes.flatMap((shards) => [...shards.open]).sort((a, b) => a - b);
  expect(open).toEqual(Array.from({ length: count }, (_, shard) => shard));
}

describe.skipIf(!POSTGRES_URL)('gateway shards held through PostgreSQL advisory locks', () => {
  it('shares five shards out between three processes, each once, on the count of the first', async () => {
    const database = await shardDatabase();
    const first = new RecordedShards(5);
    await startLeases(database.url, 'shards-a', first);
    // Taken once two rebalances in a row counted the same members (alone here).
    await until(() => first.open.size === 5, 5_000, 'every shard opened by the first');
    // The others' Discord recommends another count: the deployment's stays, or a guild's shard would differ.
    const others = [new RecordedShards(8), new RecordedShards(8)];
    const leases = await Promise.all(others.map((shards, i) => startLeases(database.url, `shards-${i}`, shards)));
    const all = [first, ...others];
    await until(() => all.every((shards) => shards.open.size >= 1 && shards.open.size <= 2), 10_000, 'an even share');
    await until(() => all.reduce((n, shards) => n + shards.open.size, 0) === 5, 10_000, 'every shard open');
    expectEachOpenOnce(all, 5);
    expect(others.map((shards) => shards.count)).toEqual([5, 5]);
    expect(leases.map((lease) => lease.shards.length).reduce((a, b) => a + b, 0) + first.open.size).toBe(5);
  });

  it('a killed process’s shards go to the others, which open only those and keep their own', async () => {
    const database = await shardDatabase();
    const a = new RecordedShards(4);
    const b = new RecordedShards(4);
    await startLeases(database.url, 'shards-a', a);
    await startLeases(database.url, 'shards-b', b);
    await until(() => a.open.size === 2 && b.open.size === 2, 10_000, 'two each');
    const keptByB = [...b.open];
    const ofA = [...a.open].sort();
    const eventsBefore = b.events.length;

    // As a SIGKILL would: the session ends without a goodbye, and with it every lock.
    await terminateSessions(database.url, 'shards-a');
    await until(() => b.open.size === 4, 5_000, 'the killed one’s shards taken');
    const after = b.events.slice(eventsBefore);
    expect(after.every((event) => event.startsWith('+'))).toBe(true);
    expect(after.map((event) => Number(event.slice(1))).sort()).toEqual(ofA);
    expect(keptByB.every((shard) => b.open.has(shard))).toBe(true);
  });

  it('a shard handed to a process that joins is opened there only once its old holder closed it', async () => {
    const database = await shardDatabase();
    const timeline: Array<{ at: number; what: string }> = [];
    // Closing takes 700 ms (a slow close): the lock must stay with the old holder meanwhile.
    const holder = new RecordedShards(2, 700, timeline);
    await startLeases(database.url, 'shards-holder', holder);
    await until(() => holder.open.size === 2, 5_000, 'both shards opened by the holder');
    const joinerTimeline: Array<{ at: number; what: string }> = [];
    const joiner = new RecordedShards(2, 0, joinerTimeline);
    await startLeases(database.url, 'shards-joiner', joiner);
    await until(() => joiner.open.size === 1 && holder.open.size === 1, 10_000, 'one each');
    const [moved] = [...joiner.open];
    const closedAt = timeline.find((event) => event.what === `closed ${String(moved)}`)?.at;
    const openedAt = joinerTimeline.find((event) => event.what === `opened ${String(moved)}`)?.at;
    if (closedAt === undefined || openedAt === undefined) throw new Error('no hand-over seen');
    expect(openedAt).toBeGreaterThan(closedAt);
    expectEachOpenOnce([holder, joiner], 2);
  });

  it('takes identify turns for the whole deployment: one per bucket per spacing, none held by those that wait', async () => {
    const database = await shardDatabase();
    const pool = new pg.Pool({ connectionString: database.url, max: 4 });
    cleanups.push(() => pool.end());
    const spacingMs = 1_000;
    const answers = await Promise.all([0, 0, 0].map((bucket) => takeIdentifyTurn(pool, bucket, spacingMs)));
    // One takes the turn; the others are told to ask again once it is over, within the spacing.
    expect(answers.filter((wait) => wait === 0)).toHaveLength(1);
    for (const wait of answers.filter((answer) => answer > 0)) expect(wait).toBeLessThanOrEqual(spacingMs);
    // Another bucket has its own turns.
    expect(await takeIdentifyTurn(pool, 1, spacingMs)).toBe(0);
    // Asking while waiting holds nothing: once the turn is over, the next to ask takes it at once.
    let untilOver = 0;
    for (let i = 0; i < 5; i += 1) {
      untilOver = await takeIdentifyTurn(pool, 0, spacingMs);
      expect(untilOver).toBeGreaterThan(0);
    }
    // Timed from what the store last said, not from this test's start: the turn began when the store took it,
    // after the pool's first connections were opened (which under load took long enough to fail a test timed so).
    await new Promise((resolve) => setTimeout(resolve, untilOver + 20));
    expect(await takeIdentifyTurn(pool, 0, spacingMs)).toBe(0);
    expect(await takeIdentifyTurn(pool, 0, spacingMs)).toBeGreaterThan(spacingMs / 2);
  });
});
