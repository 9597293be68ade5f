import { afterEach, describe, expect, it } from 'vitest';

import { findPostgresBinDir, startPostgresCluster } from '../helpers/postgres-cluster.js';
import { buildChaosWorld, chaosFleet, checkPosted, sendAll, waitForEmptyStore } from './chaos-scenario.js';
import type { Fleet } from './fleet.js';

const BIN_DIR = findPostgresBinDir();
const GUILDS = 30;
const PER_GUILD = 40;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What a process's /healthz answers now (undefined: no answer). */
async function healthOf(fleet: Fleet, name: string): Promise<{ status: number; store?: string } | undefined> {
  const bot = fleet.processes.get(name);
  if (!bot) return undefined;
  try {
    const response = await fetch(`http://127.0.0.1:${bot.port}/healthz`);
    const body = (await response.json()) as { store?: string };
    return { status: response.status, ...(body.store === undefined ? {} : { store: body.store }) };
  } catch {
    return undefined;
  }
}

/**
 * The store failing under the feed: PostgreSQL restarted, then its postmaster SIGKILLed and started again, while
 * two processes (intake and feed each) take and post a backlog. Neither process ends; every delivery answered
 * 2xx is posted once, in its guild's order.
 */
describe.skipIf(!BIN_DIR && !process.env['CI'])('PostgreSQL restarting under two bot processes', () => {
  it('both stay up, say so in /healthz, and post every delivery answered 2xx once, in order', async () => {
    const cluster = await startPostgresCluster(BIN_DIR ?? '');
    cleanups.push(() => cluster.stop());
    const world = await buildChaosWorld(cluster.adminUrl, GUILDS);
    cleanups.push(() => world.discord.close());
    const fleet = chaosFleet(world, cluster.adminUrl);
    cleanups.push(() => fleet.stopAll());
    await Promise.all([fleet.start('bot-1', 'all'), fleet.start('bot-2', 'all')]);

    const sent = sendAll(fleet, world, PER_GUILD, 300);
    const seenFailing: Array<{ status: number; store?: string }> = [];
    const faults = (async () => {
      await sleep(3_000);
      await cluster.restart();
      await sleep(3_000);
      await cluster.kill();
      // While the database is down, the processes answer and say what is wrong.
      for (let tries = 0; tries < 20 && seenFailing.length === 0; tries += 1) {
        const health = await healthOf(fleet, 'bot-1');
        if (health?.store === 'failing') seenFailing.push(health);
        else await sleep(100);
      }
      await sleep(1_000);
      // Orphaned backends end when they notice the postmaster is gone; until then a new one refuses to start.
      for (let tries = 0; ; tries += 1) {
        try {
          await cluster.start();
          break;
        } catch (error) {
          if (tries >= 20) throw error;
          await sleep(500);
        }
      }
    })();
    const [record] = await Promise.all([sent, faults]);
    await waitForEmptyStore(fleet, 60_000);

    for (const bot of fleet.processes.values()) {
      expect({ name: bot.name, exitCode: bot.child.exitCode, signal: bot.child.signalCode }).toEqual({
        name: bot.name,
        exitCode: null,
        signal: null,
      });
    }
    expect(seenFailing).toEqual([{ status: 503, store: 'failing' }]);
    expect(await healthOf(fleet, 'bot-1')).toEqual({ status: 200, store: 'postgres' });
    expect(checkPosted(world, record)).toEqual({ lost: 0, doubled: 0, outOfOrder: 0 });
    expect([...record.answered.values()].flat()).toHaveLength(GUILDS * PER_GUILD);
    expect(world.discord.violations).toEqual([]);
  }, 180_000);
});
