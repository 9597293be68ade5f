import { afterEach, describe, expect, it } from 'vitest';

import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { buildChaosWorld, checkPosted, sendAll, waitForEmptyStore, type ChaosWorld } from './chaos-scenario.js';
import { Fleet } from './fleet.js';

const GUILDS = 200;
const PER_GUILD = 50;
/** Between a guild's deliveries: the 10,000 arrive over about 40 s, so every fault meets traffic. */
const GAP_MS = 800;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function fleetFor(world: ChaosWorld, storeUrl: string): Fleet {
  const fleet = new Fleet({
    env: {
      DISCORD_TOKEN: world.discord.botToken,
      DISCORD_API_URL: world.discord.apiUrl,
      PUBLIC_URL: 'https://bot.example.test',
      SERVICE_URL: 'https://service.example.test',
      STORE_URL: storeUrl,
      LOG_LEVEL: 'info',
    },
  });
  cleanups.push(() => fleet.stopAll());
  return fleet;
}

/** Discord failing in the two ways the issue names, while traffic flows. */
async function discordFaults(world: ChaosWorld): Promise<void> {
  await sleep(3_000);
  world.discord.failRequests({ status: 500, forMs: 10_000, match: /\/messages$/ });
  await sleep(12_000);
  world.discord.hangRequests({ forMs: 30_000, match: /\/messages$/ });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!POSTGRES_URL)('chaos: 3 intake and 2 feed processes on PostgreSQL', () => {
  it('posts every delivery answered 2xx exactly once, in its guild order, through kills and Discord faults', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const world = await buildChaosWorld(database.url, GUILDS);
    cleanups.push(() => world.discord.close());
    const fleet = fleetFor(world, database.url);
    await Promise.all([
      fleet.start('intake-1', 'intake'),
      fleet.start('intake-2', 'intake'),
      fleet.start('intake-3', 'intake'),
      fleet.start('feed-1', 'feed'),
      fleet.start('feed-2', 'feed'),
    ]);

    let sending = true;
    const sent = sendAll(fleet, world, PER_GUILD, GAP_MS).finally(() => (sending = false));
    const chaos = (async () => {
      await sleep(5_000);
      await fleet.kill('intake-2');
      for (let round = 0; round < 10; round += 1) {
        await sleep(3_000);
        const victim = round % 2 === 0 ? 'feed-1' : 'feed-2';
        await fleet.kill(victim);
        await fleet.start(victim, 'feed');
      }
    })();
    await Promise.all([sent, chaos, discordFaults(world)]);
    expect(sending).toBe(false);
    const record = await sent;
    await waitForEmptyStore(fleet, 120_000);

    const outcome = checkPosted(world, record);
    expect(outcome).toEqual({ lost: 0, doubled: 0, outOfOrder: 0 });
    expect([...record.answered.values()].flat()).toHaveLength(GUILDS * PER_GUILD);
    expect(world.discord.violations).toEqual([]);
  }, 300_000);
});

describe('chaos: one process on SQLite', () => {
  it('posts every delivery answered 2xx exactly once, in its guild order, through kills and Discord faults', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const storeUrl = `sqlite://${dir.path}/bot.sqlite`;
    const world = await buildChaosWorld(storeUrl, GUILDS);
    cleanups.push(() => world.discord.close());
    const fleet = fleetFor(world, storeUrl);
    await fleet.start('bot', 'all');

    const sent = sendAll(fleet, world, PER_GUILD, GAP_MS);
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
    expect([...record.answered.values()].flat()).toHaveLength(GUILDS * PER_GUILD);
    expect(world.discord.violations).toEqual([]);
  }, 300_000);
});
