import { afterEach, describe, expect, it } from 'vitest';

import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  buildChaosWorld,
  CHAOS_GAP_MS,
  CHAOS_GUILDS,
  CHAOS_PER_GUILD,
  chaosFleet,
  checkPosted,
  discordFaults,
  runPostgresChaos,
  sendAll,
  waitForEmptyStore,
  type ChaosWorld,
} from './chaos-scenario.js';
import type { Fleet } from './fleet.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function fleetFor(world: ChaosWorld, storeUrl: string): Fleet {
  const fleet = chaosFleet(world, storeUrl);
  cleanups.push(() => fleet.stopAll());
  return fleet;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!POSTGRES_URL)('chaos: 3 intake and 2 feed processes on PostgreSQL', () => {
  it('posts every delivery answered 2xx exactly once, in its guild order, through kills and Discord faults', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const world = await buildChaosWorld(database.url, CHAOS_GUILDS);
    cleanups.push(() => world.discord.close());
    const fleet = fleetFor(world, database.url);

    const record = await runPostgresChaos(fleet, world);

    expect(checkPosted(world, record)).toEqual({ lost: 0, doubled: 0, outOfOrder: 0 });
    expect([...record.answered.values()].flat()).toHaveLength(CHAOS_GUILDS * CHAOS_PER_GUILD);
    expect(world.discord.violations).toEqual([]);
  }, 300_000);
});

describe('chaos: one process on SQLite', () => {
  it('posts every delivery answered 2xx exactly once, in its guild order, through kills and Discord faults', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const storeUrl = `sqlite://${dir.path}/bot.sqlite`;
    const world = await buildChaosWorld(storeUrl, CHAOS_GUILDS);
    cleanups.push(() => world.discord.close());
    const fleet = fleetFor(world, storeUrl);
    await fleet.start('bot', 'all');

    const sent = sendAll(fleet, world, CHAOS_PER_GUILD, CHAOS_GAP_MS);
    const chaos = (async () => {
      for (let round = 0; round < 3; round += 1) {
        await sleep(8_000);
        await fleet.kill('bot');
        await fleet.start('bot', 'all');
      }
    })();
    await Promise.all([sent, chaos, discordFaults(world)]);
    const record = await sent;
    await waitForEmptyStore(fleet, 120_000);

    expect(checkPosted(world, record)).toEqual({ lost: 0, doubled: 0, outOfOrder: 0 });
    expect([...record.answered.values()].flat()).toHaveLength(CHAOS_GUILDS * CHAOS_PER_GUILD);
    expect(world.discord.violations).toEqual([]);
  }, 300_000);
});
