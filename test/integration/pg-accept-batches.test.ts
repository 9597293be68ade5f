import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import type { NewDelivery } from '../../src/store/deliveries.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';

const GUILDS = ['222222222222222221', '222222222222222222', '222222222222222223'];
const channelOf = (guildId: string) => `3000000000000000${guildId.slice(-2)}`;

function delivery(id: string, guildId: string, rawBody = `{"id":"${id}"}`): NewDelivery {
  return { hookId: 'hook-1', guildId, deliveryId: id, event: 'modcall', receivedAt: 1_000, rawBody };
}

/**
 * The PostgreSQL intake stores the accepts of one moment together (one round trip, one commit): what each
 * caller hears must still be its own delivery's outcome, and one delivery the database refuses must not take
 * the others of its batch down with it.
 */
/**
 * Advisory locks waited for in this test's own database: pg_locks shows the whole cluster, where other test files'
 * processes wait on each other's advisory locks (a feed process watches the next member's) at the same time.
 */
async function advisoryLocksWaiting(client: pg.Client): Promise<number | undefined> {
  const { rows } = await client.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
       AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
  );
  return rows[0]?.n;
}

describe.skipIf(!POSTGRES_URL)('accepts stored together on PostgreSQL', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  let databaseUrl = '';
  const start = async (): Promise<Store> => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    databaseUrl = database.url;
    const store = await openStore(database.url, STORE_MODULES);
    cleanups.push(() => store.close());
    for (const guildId of GUILDS) {
      await store.guilds.update(guildId, (settings) => ({ ...settings, defaultChannelId: channelOf(guildId) }));
    }
    return store;
  };

  it('answers each caller of a burst over three guilds with its own outcome, duplicates included', async () => {
    const store = await start();
    const burst = Array.from({ length: 90 }, (_, i) => delivery(`d${i % 60}`, GUILDS[i % 3] ?? ''));
    const outcomes = await Promise.all(burst.map((d) => store.deliveries.accept(d)));
    // d0…d29 come twice (same guild each time, as i % 3 repeats): one copy accepted, the other a duplicate.
    const byId = new Map<string, string[]>();
    burst.forEach((d, i) => byId.set(d.deliveryId, [...(byId.get(d.deliveryId) ?? []), outcomes[i] ?? '']));
    for (const [id, seen] of byId) {
      expect([id, [...seen].sort()]).toEqual([id, seen.length === 2 ? ['accepted', 'duplicate'] : ['accepted']]);
    }
    for (const guildId of GUILDS) {
      const lane = await store.deliveries.nextFor(channelOf(guildId), 100);
      expect(lane).toHaveLength(20);
      expect(lane.every((entry) => entry.guildId === guildId)).toBe(true);
    }
    expect(await store.activity.get('hook-1')).toMatchObject({ lastDeliveryAt: 1_000, lastEvent: 'modcall' });
  });

  it("wakes each lane of a burst, with its guild and its latest arrival, and counts each hook's latest delivery", async () => {
    const store = await start();
    const heard = new Map<string, { guildId: string; at: number }>();
    const stop = store.signals.subscribe((signal) => {
      if (signal.kind === 'work') {
        const { channelId, guildId, at } = signal;
        heard.set(channelId, { guildId, at: Math.max(at, heard.get(channelId)?.at ?? 0) });
      }
    });
    cleanups.push(() => Promise.resolve(stop()));
    const burst = Array.from({ length: 30 }, (_, i) => ({
      ...delivery(`w${i}`, GUILDS[i % 3] ?? ''),
      hookId: `hook-${i % 2}`,
      event: i === 28 ? 'case.created' : 'modcall',
      receivedAt: 5_000 + i,
    }));
    await Promise.all(burst.map((d) => store.deliveries.accept(d)));
    const expected = new Map(
      GUILDS.map((guildId, g) => [channelOf(guildId), { guildId, at: 5_000 + 27 + g }] as const),
    );
    await expect.poll(() => new Map(heard), { timeout: 5_000 }).toEqual(expected);
    expect(await store.activity.get('hook-0')).toMatchObject({ lastDeliveryAt: 5_028, lastEvent: 'case.created' });
    expect(await store.activity.get('hook-1')).toMatchObject({ lastDeliveryAt: 5_029, lastEvent: 'modcall' });
  });

  it('fails only the delivery the database refuses, and stores the rest of its burst', async () => {
    const store = await start();
    const guildId = GUILDS[0] ?? '';
    // PostgreSQL's text cannot hold a NUL character: that insert fails, as a broken row would.
    const burst = Array.from({ length: 12 }, (_, i) =>
      i === 5 ? delivery('poison', guildId, '{"id":"\u0000"}') : delivery(`ok-${i}`, guildId),
    );
    const settled = await Promise.allSettled(burst.map((d) => store.deliveries.accept(d)));
    expect(settled.map((result) => result.status)).toEqual(
      burst.map((d) => (d.deliveryId === 'poison' ? 'rejected' : 'fulfilled')),
    );
    const lane = await store.deliveries.nextFor(channelOf(guildId), 100);
    expect(lane.map((entry) => entry.deliveryId).sort()).toEqual(
      burst
        .map((d) => d.deliveryId)
        .filter((id) => id !== 'poison')
        .sort(),
    );
    expect(await store.deliveries.stateOf('hook-1', 'poison')).toBeUndefined();
  });

  it('stores a delivery that came before a removal of its hook, and refuses one that came while it was under way', async () => {
    const store = await start();
    const guildId = GUILDS[0] ?? '';
    await store.hooks.save({
      hookId: 'hook-1',
      guildId,
      webhookId: 'wh_1',
      secret: 's',
      events: ['all'],
      createdAt: 1,
    });
    // Another session holds the guild's lock, as a batch being stored would: what comes next queues behind it.
    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    await blocker.query('BEGIN');
    await blocker.query(`SELECT pg_advisory_xact_lock(hashtextextended('bridge.guild:' || $1, 0))`, [guildId]);
    const waiting = () => advisoryLocksWaiting(blocker);
    const early = store.deliveries.accept(delivery('early', guildId), { requireHook: true });
    await expect.poll(waiting).toBe(1);
    const removed = store.hooks.remove('hook-1');
    await expect.poll(waiting).toBe(2);
    // Held back until the guild's batch in flight is stored, so sent after the removal queued for the lock.
    const late = store.deliveries.accept(delivery('late', guildId), { requireHook: true });
    await blocker.query('COMMIT');

    expect(await early).toBe('accepted');
    await removed;
    expect(await late).toBe('unknown-hook');
    expect(await store.deliveries.stateOf('hook-1', 'early')).toBe('waiting');
    expect(await store.deliveries.stateOf('hook-1', 'late')).toBeUndefined();
    expect(await store.hooks.get('hook-1')).toBeUndefined();
  });

  it("sends one batch of a guild at a time, and another guild's meanwhile", async () => {
    const store = await start();
    const [busy = '', other = ''] = GUILDS;
    const blocker = new pg.Client({ connectionString: databaseUrl });
    await blocker.connect();
    cleanups.push(() => blocker.end());
    // Another session holds the first guild's lock, as a batch being stored would.
    await blocker.query('BEGIN');
    await blocker.query(`SELECT pg_advisory_xact_lock(hashtextextended('bridge.guild:' || $1, 0))`, [busy]);
    const waiting = () => advisoryLocksWaiting(blocker);
    const first = store.deliveries.accept(delivery('b-1', busy));
    await expect.poll(waiting).toBe(1);
    // Held back in this process for the guild's next batch, not sent to wait in the database beside the first.
    const later = Array.from({ length: 5 }, (_, i) => store.deliveries.accept(delivery(`b-${i + 2}`, busy)));
    // The other guild is not held up by the first's.
    expect(await store.deliveries.accept(delivery('o-1', other))).toBe('accepted');
    expect(await waiting()).toBe(1);
    await blocker.query('COMMIT');

    expect(await Promise.all([first, ...later])).toEqual(Array.from({ length: 6 }, () => 'accepted'));
    const lane = await store.deliveries.nextFor(channelOf(busy), 100);
    expect(lane.map((entry) => entry.deliveryId)).toEqual(['b-1', 'b-2', 'b-3', 'b-4', 'b-5', 'b-6']);
  });
});
