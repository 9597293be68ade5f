import { afterEach, describe, expect, it } from 'vitest';

import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { buildChaosWorld, chaosFleet, checkPosted, sendAll, waitForEmptyStore } from './chaos-scenario.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The bot's lease timeout on PostgreSQL (idle_session_timeout of the lease session, src/store/postgres). */
const LEASE_TIMEOUT_MS = 10_000;

describe.skipIf(!POSTGRES_URL)('a feed process paused past its lease timeout (PostgreSQL)', () => {
  it('posts nothing twice and keeps each channel in order when it resumes after another took its guilds', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const world = await buildChaosWorld(database.url, 20);
    cleanups.push(() => world.discord.close());
    const fleet = chaosFleet(world, database.url);
    cleanups.push(() => fleet.stopAll());
    await Promise.all([fleet.start('intake', 'intake'), fleet.start('feed-1', 'feed'), fleet.start('feed-2', 'feed')]);

    // 20 guilds, one delivery every 0.4 s each (50 a second) for about 20 s: traffic before, during and after.
    const sent = sendAll(fleet, world, 50, 400);
    await sleep(4_000);
    fleet.pause('feed-1');
    cleanups.push(() => fleet.resume('feed-1'));
    await sleep(LEASE_TIMEOUT_MS + 3_000);
    fleet.resume('feed-1');
    const record = await sent;
    await waitForEmptyStore(fleet, 60_000);

    expect(checkPosted(world, record)).toEqual({ lost: 0, doubled: 0, outOfOrder: 0 });
    expect(world.discord.violations).toEqual([]);
    // It noticed on its own that its lease could not be trusted any more, and stopped its lanes.
    const paused = fleet.processes.get('feed-1');
    expect(paused?.lines.some((line) => /has not answered in time/.test(String(line['msg'])))).toBe(true);
  }, 120_000);
});
