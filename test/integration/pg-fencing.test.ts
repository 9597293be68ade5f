import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import type { FeedMessageBody } from '../../src/discord/posting/send-failure.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { FeedWorker } from '../../src/feed/feed-worker.js';
import { LeaseLostError, type NewDelivery } from '../../src/store/deliveries.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { withTimeouts } from '../../src/store/postgres/connection-timeouts.js';
import { PostgresLeases } from '../../src/store/postgres/pg-leases.js';
import { notify } from '../../src/store/postgres/pg-signals.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { startBlackHoleProxy } from '../helpers/black-hole-proxy.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createTestDatabase, POSTGRES_URL, terminateSessions } from '../helpers/postgres-database.js';

const GUILD = '222222222222222222';
const CHANNEL = '300000000000000001';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(
  check: () => boolean | Promise<boolean>,
  timeoutMs: number,
  what: string,
  meanwhile?: () => Promise<void>,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await meanwhile?.();
    await sleep(20);
  }
}

function modcall(id: string): NewDelivery {
  return {
    hookId: 'h1',
    guildId: GUILD,
    deliveryId: id,
    event: 'modcall',
    receivedAt: Date.now(),
    // A caller of its own: one caller's calls are one card, and this test counts posts.
    rawBody: JSON.stringify({
      ...SAMPLE_DELIVERIES.modcall,
      id,
      data: { ...SAMPLE_DELIVERIES.modcall.data, caller: { robloxId: id, name: id } },
    }),
  };
}

/** The bot's store on a database of its own, its feed routed to CHANNEL. */
async function storeOn(url: string): Promise<Store> {
  const store = await openStore(url, STORE_MODULES);
  cleanups.push(() => store.close());
  await store.guilds.update(GUILD, (settings) => ({ ...settings, defaultChannelId: CHANNEL }));
  return store;
}

function leasesOn(url: string, name: string, timing: { rebalanceMs: number; idleTimeoutMs: number }) {
  const leases = new PostgresLeases(withTimeouts({ connectionString: url, application_name: name }), {
    logger: captureLogs().logger,
    wantsGateway: false,
    ...timing,
  });
  cleanups.push(() => leases.stop());
  return leases;
}

const noFeed = { gained: () => undefined, losing: () => Promise.resolve() };
const idsIn = (body: FeedMessageBody) =>
  body.embeds.map((embed) => /Delivery (\S+)$/.exec(embed.footer?.text ?? '')?.[1] ?? '?');

describe.skipIf(!POSTGRES_URL)('a feed process fenced off once its lease is gone (PostgreSQL)', () => {
  it('refuses to write down, confirm or release a message under a lease another process has taken since', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const store = await storeOn(database.url);
    for (const id of ['f1', 'f2']) await store.deliveries.accept(modcall(id));
    const timing = { rebalanceMs: 100, idleTimeoutMs: 5_000 };

    const first = leasesOn(database.url, 'fence-first', timing);
    await first.start(noFeed);
    const old = first.leaseOf(GUILD);
    expect(old).toBeDefined();
    const [f1, f2] = await store.deliveries.nextFor(CHANNEL, 10);
    expect(await store.deliveries.writeDown(CHANNEL, 'nonce-of-first', [f1?.seq ?? -1], '{"m":1}', old)).toBe(true);

    // The first process's session ends (as a crash would end it) and another takes the partition.
    await terminateSessions(database.url, 'fence-first');
    const second = leasesOn(database.url, 'fence-second', timing);
    await second.start(noFeed);
    await until(() => second.owns(GUILD), 5_000, 'the partition taken over');
    const current = second.leaseOf(GUILD);
    expect(current?.epoch).toBeGreaterThan(old?.epoch ?? Infinity);

    // The first process, late, under its old lease: every write is refused and changes nothing.
    await expect(store.deliveries.ack(CHANNEL, 'nonce-of-first', Date.now(), old)).rejects.toBeInstanceOf(
      LeaseLostError,
    );
    await expect(store.deliveries.release(CHANNEL, 'nonce-of-first', old)).rejects.toBeInstanceOf(LeaseLostError);
    await expect(
      store.deliveries.writeDown(CHANNEL, 'nonce-late', [f2?.seq ?? -1], '{"m":2}', old),
    ).rejects.toBeInstanceOf(LeaseLostError);
    expect((await store.deliveries.nextFor(CHANNEL, 10)).map((e) => [e.deliveryId, e.writtenNonce])).toEqual([
      ['f1', 'nonce-of-first'],
    ]);
    expect(await store.deliveries.writtenMessage(CHANNEL, 'nonce-of-first')).toBe('{"m":1}');

    // The new owner resends what was written down and confirms it.
    await store.deliveries.ack(CHANNEL, 'nonce-of-first', Date.now(), current);
    expect(await store.deliveries.stateOf('h1', 'f1')).toBe('posted');
    expect(await store.deliveries.stateOf('h1', 'f2')).toBe('waiting');
  });

  it('refuses to hold entries, or to mark their channel broken, under a lease another process has taken since', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const store = await storeOn(database.url);
    for (const id of ['h1', 'h2']) await store.deliveries.accept(modcall(id));
    const timing = { rebalanceMs: 100, idleTimeoutMs: 5_000 };
    const first = leasesOn(database.url, 'hold-first', timing);
    await first.start(noFeed);
    const old = first.leaseOf(GUILD);
    expect(old).toBeDefined();
    const [h1, h2] = await store.deliveries.nextFor(CHANNEL, 10);

    // The first process's session ends (as a crash would end it) and another takes the partition.
    await terminateSessions(database.url, 'hold-first');
    const second = leasesOn(database.url, 'hold-second', timing);
    await second.start(noFeed);
    await until(() => second.owns(GUILD), 5_000, 'the partition taken over');

    // The first process, late: Discord refused its message, or the channel; neither hold is made under its old lease.
    await expect(
      store.deliveries.holdRefused([h1?.seq ?? -1], 'Discord 400: Invalid Form Body', Date.now(), old),
    ).rejects.toBeInstanceOf(LeaseLostError);
    const broken = { channelId: CHANNEL, guildId: GUILD, status: 403, reason: 'Missing Access', since: Date.now() };
    await expect(store.deliveries.holdBrokenChannel(broken, old)).rejects.toBeInstanceOf(LeaseLostError);
    expect(await store.deliveries.statusOf(GUILD)).toMatchObject({
      waiting: 2,
      heldRefused: 0,
      heldBroken: 0,
      broken: [],
    });
    expect((await store.deliveries.nextFor(CHANNEL, 10)).map((entry) => entry.deliveryId)).toEqual(['h1', 'h2']);

    // The new owner's holds are made.
    const current = second.leaseOf(GUILD);
    await store.deliveries.holdRefused([h2?.seq ?? -1], 'Discord 400: Invalid Form Body', Date.now(), current);
    expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 1, heldRefused: 1 });
    await store.deliveries.holdBrokenChannel(broken, current);
    expect(await store.deliveries.statusOf(GUILD)).toMatchObject({
      waiting: 0,
      heldBroken: 1,
      broken: [{ channelId: CHANNEL, status: 403 }],
    });
  });

  it('posts a channel again once the lease session answers again, after its lane stopped on the silence while poked', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const store = await storeOn(database.url);
    const logs = captureLogs();
    // Trusted for 8 s after the session last answered; no timer of its own rebalances it (only what it is told).
    const leases = new PostgresLeases(
      withTimeouts({ connectionString: database.url, application_name: 'fence-silent' }),
      { logger: logs.logger, wantsGateway: false, rebalanceMs: 600_000, idleTimeoutMs: 10_000 },
      store.signals,
    );
    cleanups.push(() => leases.stop());
    // Discord as it treats a nonce: a resend under it is answered with the message made the first time.
    const posted = new Map<string, string[]>();
    let release: (() => void) | undefined;
    const firstSendHeld = new Promise<void>((resolve) => (release = resolve));
    const worker = new FeedWorker({
      queue: store.deliveries,
      guilds: store.guilds,
      signals: store.signals,
      send: async (_channelId, body) => {
        if (posted.size === 0) await firstSendHeld;
        if (!posted.has(body.nonce)) posted.set(body.nonce, idsIn(body));
        await sleep(5);
      },
      logger: logs.logger,
      clock: () => Date.now(),
      batchWindow: { quietMs: 0, maxMs: 0 },
      ownership: leases,
      rescanMs: 600_000,
    });
    cleanups.push(() => worker.stop());
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    cleanups.push(() => admin.end());
    const askRebalance = () => notify(admin, { kind: 'leases' });

    await worker.start();
    const answeredAt = Date.now();
    expect(leases.partitions).toHaveLength(64);
    await store.deliveries.accept(modcall('s1'));
    await until(() => release !== undefined && worker.laneCount === 1, 5_000, 's1 being sent');
    await sleep(50);
    // More work while s1 is being sent: its lane is poked during the pass.
    await store.deliveries.accept(modcall('s2'));
    await sleep(50);

    // The lease session's server process stalls (paused, as a host under a hiccup): a rebalance asked now waits.
    const [backend] = (
      await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = 'fence-silent'`)
    ).rows;
    if (!backend) throw new Error('no lease session');
    process.kill(backend.pid, 'SIGSTOP');
    let paused = true;
    cleanups.push(() => paused && process.kill(backend.pid, 'SIGCONT'));
    await askRebalance();
    // Past the trust (8 s), before the server's idle-session timeout (10 s) could end the session: s1's send ends
    // and its lane stops on the lease it cannot confirm.
    await sleep(Math.max(0, answeredAt + 8_300 - Date.now()));
    release?.();
    await until(() => logs.text().includes('no longer holds the lease'), 2_000, 'the lane stopped');
    process.kill(backend.pid, 'SIGCONT');
    paused = false;

    // The session answers again and the partitions are this process's once more: the channel's entries are posted
    // without waiting for more work or for the rescan (its safety net, set beyond this test's end).
    await askRebalance();
    await until(async () => (await store.deliveries.countOpen()) === 0, 15_000, 'every delivery posted', askRebalance);
    expect([...posted.values()].flat()).toEqual(['s1', 's2']);
  }, 40_000);

  it('a feed process cut off from the database stops posting before another takes its channel over', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const timing = { rebalanceMs: 100, idleTimeoutMs: 1_500 };
    const sends: Array<{ by: 'a' | 'b'; at: number; nonce: string; ids: string[] }> = [];
    const feedProcess = async (by: 'a' | 'b', leaseUrl: string) => {
      const store = await storeOn(database.url);
      const worker = new FeedWorker({
        queue: store.deliveries,
        guilds: store.guilds,
        signals: store.signals,
        send: async (_channelId, body) => {
          sends.push({ by, at: Date.now(), nonce: String(body.nonce), ids: idsIn(body) });
          await sleep(5);
        },
        logger: captureLogs().logger,
        clock: () => Date.now(),
        batchWindow: { quietMs: 5, maxMs: 20 },
        ownership: leasesOn(leaseUrl, `fence-${by}`, timing),
      });
      cleanups.push(() => worker.stop());
      await worker.start();
      return store;
    };

    // Process a holds its lease through a network path that is about to die silently; its store connections
    // stay up, so only the lease can stop it.
    const path = await startBlackHoleProxy({ host: '127.0.0.1', port: Number(new URL(database.url).port) });
    const a = await feedProcess('a', database.url.replace(/:\d+\//, `:${path.port}/`));
    cleanups.push(() => path.close());
    const sent: string[] = [];
    let flowing = true;
    const deliveries = (async () => {
      for (let n = 0; flowing; n += 1) {
        const id = `d${String(n).padStart(4, '0')}`;
        await a.deliveries.accept(modcall(id));
        sent.push(id);
        await sleep(25);
      }
    })();
    await until(() => sends.length > 3, 5_000, 'process a posting');

    path.swallow();
    await feedProcess('b', database.url);
    await until(() => sends.some((send) => send.by === 'b'), 10_000, 'process b posting');
    // Both would be posting now if a did not stop by itself.
    await sleep(1_000);
    flowing = false;
    await deliveries;
    await until(async () => (await a.deliveries.countOpen()) === 0, 10_000, 'every delivery posted');

    const firstByB = Math.min(...sends.filter((send) => send.by === 'b').map((send) => send.at));
    const lastByA = Math.max(...sends.filter((send) => send.by === 'a').map((send) => send.at));
    expect(lastByA).toBeLessThan(firstByB);
    // Only a's last message may be sent by both: a write-down or send that started just inside a's trust
    // window (on a loaded machine its event loop may stall past it) has its confirmation refused by the new
    // epoch, and b resends that written-down message under its nonce, which Discord takes once. Any other
    // message sent by both would be a double post.
    const nonceBy = new Map<string, Set<string>>();
    for (const send of sends) nonceBy.set(send.nonce, (nonceBy.get(send.nonce) ?? new Set()).add(send.by));
    const lastOfA = sends.filter((send) => send.by === 'a').at(-1)?.nonce;
    const sentByBoth = [...nonceBy].filter(([, senders]) => senders.size > 1).map(([nonce]) => nonce);
    expect(sentByBoth.filter((nonce) => nonce !== lastOfA)).toEqual([]);
    // Each delivery in one message, in the order it was accepted (a resend under one nonce is one message).
    const messages = new Map(sends.map((send) => [send.nonce, send.ids]));
    expect([...messages.values()].flat()).toEqual(sent);
  });
});
