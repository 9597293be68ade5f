import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';

import type { NewDelivery } from '../../src/store/deliveries.js';
import { emptyGuildSettings } from '../../src/store/guild-settings.js';
import type { Store } from '../../src/store/store.js';

/** What the contract needs of an engine: a store on one database, opened again, and a way to make writes fail. */
export interface StoreUnderTest {
  /** Opens a store on the engine's database (the same one each time within a test). */
  open(clock: () => number): Promise<Store>;
  /** Makes every new delivery fail to store, as a full disk would; `heal` undoes it. */
  breakDeliveryWrites(): Promise<void>;
  healDeliveryWrites(): Promise<void>;
  /** Drops the database. */
  dispose(): Promise<void>;
}

const GUILD = '222222222222222222';
const CHANNEL_A = '300000000000000001';
const CHANNEL_B = '300000000000000002';
const HOUR = 60 * 60 * 1000;

function delivery(id: string, event = 'modcall', hookId = 'hook-1'): NewDelivery {
  return { hookId, guildId: GUILD, deliveryId: id, event, receivedAt: 1_000, rawBody: `{"id":"${id}"}` };
}

/**
 * The store port's contract: what every engine guarantees, proven the same way on each (DESIGN.md, State).
 * `engine` names the engine in the test titles.
 */
export function describeStoreContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the store contract on ${engine}`, () => {
    let underTest: StoreUnderTest;
    const open: Store[] = [];
    const now = { ms: Date.UTC(2026, 10, 23, 12) };
    const start = async () => {
      const store = await underTest.open(() => now.ms);
      open.push(store);
      return store;
    };
    const restart = async (store: Store) => {
      await store.close();
      open.splice(open.indexOf(store), 1);
      return start();
    };
    const routeTo = (store: Store, channelId: string) =>
      store.guilds.update(GUILD, (settings) => ({ ...settings, defaultChannelId: channelId }));
    /** Writes down and confirms the lane's next message, as the feed does. */
    const post = async (store: Store, channelId: string, nonce: string) => {
      const entries = await store.deliveries.nextFor(channelId, 10);
      expect(
        await store.deliveries.writeDown(
          channelId,
          nonce,
          entries.map((entry) => entry.seq),
        ),
      ).toBe(true);
      await store.deliveries.ack(channelId, nonce, now.ms);
      return entries.map((entry) => entry.deliveryId);
    };

    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
      await underTest.dispose();
    });

    it('keeps the message written down with its entries until it is confirmed or released, across a restart', async () => {
      underTest = await makeEngine();
      let store = await start();
      await routeTo(store, CHANNEL_A);
      for (const id of ['m1', 'm2', 'm3']) await store.deliveries.accept(delivery(id));
      const seqsOf = async (max: number) => (await store.deliveries.nextFor(CHANNEL_A, max)).map((entry) => entry.seq);

      expect(await store.deliveries.writeDown(CHANNEL_A, 'nonce-1', await seqsOf(2), '{"body":"first"}')).toBe(true);
      store = await restart(store);
      expect(await store.deliveries.writtenMessage(CHANNEL_A, 'nonce-1')).toBe('{"body":"first"}');
      expect(await store.deliveries.writtenMessage(CHANNEL_A, 'another')).toBeUndefined();
      expect(await store.deliveries.writtenMessage(CHANNEL_B, 'nonce-1')).toBeUndefined();
      await store.deliveries.release(CHANNEL_A, 'nonce-1');
      expect(await store.deliveries.writtenMessage(CHANNEL_A, 'nonce-1')).toBeUndefined();

      expect(await store.deliveries.writeDown(CHANNEL_A, 'nonce-2', await seqsOf(2), '{"body":"second"}')).toBe(true);
      await store.deliveries.ack(CHANNEL_A, 'nonce-2', now.ms);
      expect(await store.deliveries.writtenMessage(CHANNEL_A, 'nonce-2')).toBeUndefined();

      // One that could not be written down (its entry left the lane) keeps no message.
      const [m3] = await seqsOf(1);
      expect(await store.deliveries.writeDown(CHANNEL_A, 'nonce-3', [m3 ?? 0, 999_999], '{"body":"third"}')).toBe(
        false,
      );
      expect(await store.deliveries.writtenMessage(CHANNEL_A, 'nonce-3')).toBeUndefined();
    });

    it('accepts 50 concurrent copies of one delivery once', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      const outcomes = await Promise.all(Array.from({ length: 50 }, () => store.deliveries.accept(delivery('d1'))));
      expect(outcomes.filter((outcome) => outcome === 'accepted')).toHaveLength(1);
      expect(outcomes.filter((outcome) => outcome === 'duplicate')).toHaveLength(49);
      expect(await store.deliveries.countOpen()).toBe(1);
      // The same id from another hook is another delivery.
      expect(await store.deliveries.accept(delivery('d1', 'modcall', 'hook-2'))).toBe('accepted');
    });

    it('accepts a 5,000-character delivery id once, told apart from another that shares its start', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      // Random, so PostgreSQL cannot compress it below its index's limit as it would a repeated character.
      const long = randomBytes(3_750).toString('base64url');
      const sibling = `${long.slice(0, -1)}${long.endsWith('A') ? 'B' : 'A'}`;
      expect(await store.deliveries.accept(delivery(long))).toBe('accepted');
      expect(await store.deliveries.accept(delivery(long))).toBe('duplicate');
      expect(await store.deliveries.accept(delivery(sibling))).toBe('accepted');
      expect(await store.deliveries.stateOf('hook-1', long)).toBe('waiting');
      // The body is kept whole: the message shows the id as the service sent it.
      const [first] = await store.deliveries.nextFor(CHANNEL_A, 10);
      expect(first?.rawBody).toBe(`{"id":"${long}"}`);
      await post(store, CHANNEL_A, 'n1');
      expect(await store.deliveries.stateOf('hook-1', sibling)).toBe('posted');
      expect(await store.deliveries.accept(delivery(long))).toBe('duplicate');
      expect(await store.deliveries.countOpen()).toBe(0);
    });

    it('accepts the copy after a write that failed', async () => {
      underTest = await makeEngine();
      const store = await start();
      await underTest.breakDeliveryWrites();
      await expect(store.deliveries.accept(delivery('lost'))).rejects.toThrow();
      await underTest.healDeliveryWrites();
      expect(await store.deliveries.stateOf('hook-1', 'lost')).toBeUndefined();
      expect(await store.deliveries.accept(delivery('lost'))).toBe('accepted');
    });

    it('orders concurrent accepts: one lane, each once, in the order the store assigned', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      const ids = Array.from({ length: 40 }, (_, i) => `c${String(i).padStart(2, '0')}`);
      await Promise.all(ids.map((id) => store.deliveries.accept(delivery(id))));
      const sequential = ['s1', 's2', 's3'];
      for (const id of sequential) await store.deliveries.accept(delivery(id));
      const posted: string[] = [];
      for (let message = 0; posted.length < ids.length + sequential.length; message += 1) {
        const batch = await post(store, CHANNEL_A, `n${message}`);
        if (batch.length === 0) break;
        posted.push(...batch);
      }
      expect([...posted].sort()).toEqual([...ids, ...sequential].sort());
      // What was accepted one after the other comes out in that order, after everything before it.
      expect(posted.slice(-3)).toEqual(sequential);
      const open = await store.deliveries.listOpen();
      expect(open).toEqual([]);
    });

    it('keeps a delivery id at least 24 h after it was posted, then forgets it', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('e1'));
      await post(store, CHANNEL_A, 'n1');
      expect(await store.deliveries.stateOf('hook-1', 'e1')).toBe('posted');
      // The community record's writer has read it (a delivery it has not read yet outlives its retention).
      await store.community.recordPending(1_000);
      now.ms += 24 * HOUR;
      expect(await store.deliveries.sweepPosted(now.ms - 25 * HOUR)).toBe(0);
      expect(await store.deliveries.accept(delivery('e1'))).toBe('duplicate');
      now.ms += 2 * HOUR;
      expect(await store.deliveries.sweepPosted(now.ms - 25 * HOUR)).toBe(1);
      expect(await store.deliveries.accept(delivery('e1'))).toBe('accepted');
    });

    it('loses no update when two settings changes race', async () => {
      underTest = await makeEngine();
      const store = await start();
      await Promise.all([
        store.guilds.update(GUILD, (s) => ({ ...s, routes: { ...s.routes, modcall: CHANNEL_A } })),
        store.guilds.update(GUILD, (s) => ({ ...s, mentions: { ...s.mentions, modcall: '400000000000000001' } })),
        store.guilds.update(GUILD, (s) => ({ ...s, defaultChannelId: CHANNEL_B })),
      ]);
      expect(await store.guilds.get(GUILD)).toMatchObject({
        routes: { modcall: CHANNEL_A },
        mentions: { modcall: '400000000000000001' },
        defaultChannelId: CHANNEL_B,
      });
    });

    it('keeps held entries with their reason across a restart, lists them, and routes them when a route comes', async () => {
      underTest = await makeEngine();
      let store = await start();
      await store.deliveries.accept(delivery('p1', 'case.created'));
      await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_A } }));
      await store.deliveries.accept(delivery('p2'));
      const [p2] = await store.deliveries.nextFor(CHANNEL_A, 1);
      await store.deliveries.holdRefused([p2?.seq ?? -1], 'Discord 400: Invalid Form Body', now.ms);

      store = await restart(store);
      expect(await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 })).toMatchObject([
        { deliveryId: 'p1', kind: 'unrouted', channelId: null },
        { deliveryId: 'p2', kind: 'refused', detail: 'Discord 400: Invalid Form Body', channelId: CHANNEL_A },
      ]);
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({
        waiting: 0,
        unrouted: { 'case.created': 1 },
        heldRefused: 1,
      });
      await store.guilds.update(GUILD, (s) => ({ ...s, defaultChannelId: CHANNEL_B }));
      // The unrouted one now has a channel; the refused one stays aside (Discord would refuse it again).
      expect((await store.deliveries.nextFor(CHANNEL_B, 10)).map((entry) => entry.deliveryId)).toEqual(['p1']);
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 1, unrouted: {}, heldRefused: 1 });
    });

    it('routes by game server and case type, most specific rule first, and keeps that routing across re-routes', async () => {
      underTest = await makeEngine();
      let store = await start();
      const CHANNEL_BANS = '300000000000000003';
      const CHANNEL_SERVER = '300000000000000004';
      await store.guilds.update(GUILD, (s) => ({
        ...s,
        defaultChannelId: CHANNEL_A,
        rules: [
          { event: 'case.created', caseType: 'ban', channelId: CHANNEL_BANS },
          { server: '123', channelId: CHANNEL_SERVER },
        ],
      }));
      const keyed = (id: string, event: string, server: string, caseType?: string): NewDelivery => ({
        ...delivery(id, event),
        server,
        ...(caseType ? { caseType } : {}),
      });
      await store.deliveries.accept(keyed('ban-456', 'case.created', '456', 'ban'));
      await store.deliveries.accept(keyed('warn-456', 'case.created', '456', 'warn'));
      await store.deliveries.accept(keyed('ban-123', 'case.created', '123', 'ban'));
      await store.deliveries.accept(keyed('call-123', 'modcall', '123'));
      const lane = async (channelId: string) =>
        (await store.deliveries.nextFor(channelId, 10)).map((entry) => entry.deliveryId);
      expect(await lane(CHANNEL_BANS)).toEqual(['ban-456']);
      expect(await lane(CHANNEL_A)).toEqual(['warn-456']);
      // The server's rule names the server, so it beats the case type's for server 123.
      expect(await lane(CHANNEL_SERVER)).toEqual(['ban-123', 'call-123']);
      expect((await store.deliveries.nextFor(CHANNEL_SERVER, 10))[0]).toMatchObject({ server: '123', caseType: 'ban' });

      // Re-routing reads the stored server and case type: without the server's rule, its ban joins the bans.
      store = await restart(store);
      await store.guilds.update(GUILD, (s) => ({ ...s, rules: s.rules.filter((rule) => rule.server !== '123') }));
      expect(await lane(CHANNEL_BANS)).toEqual(['ban-456', 'ban-123']);
      expect(await lane(CHANNEL_A)).toEqual(['warn-456', 'call-123']);
      expect(await lane(CHANNEL_SERVER)).toEqual([]);
    });

    it('stores what an off rule mutes as posted, counts it, dedupes its retries, and mutes waiting entries it covers', async () => {
      underTest = await makeEngine();
      let store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept({ ...delivery('call-123'), server: '123' });
      await store.deliveries.accept({ ...delivery('call-456-a'), server: '456' });
      await store.guilds.update(GUILD, (s) => ({
        ...s,
        rules: [{ server: '456', event: 'modcall', channelId: null }],
      }));
      expect(await store.deliveries.accept({ ...delivery('call-456-b'), server: '456' })).toBe('accepted');
      expect(await store.deliveries.accept({ ...delivery('call-456-b'), server: '456' })).toBe('duplicate');
      await store.deliveries.accept({ ...delivery('shift-456', 'shift.started'), server: '456' });

      // The waiting one of server 456 was muted by the change; server 123 and other events are untouched.
      expect((await store.deliveries.nextFor(CHANNEL_A, 10)).map((entry) => entry.deliveryId)).toEqual([
        'call-123',
        'shift-456',
      ]);
      expect(await store.deliveries.stateOf('hook-1', 'call-456-a')).toBe('posted');
      expect(await store.deliveries.stateOf('hook-1', 'call-456-b')).toBe('posted');
      store = await restart(store);
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 2, muted: { modcall: 2 }, unrouted: {} });
      expect(await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 })).toEqual([]);
      // Muted counts are of the last day: they go with the posted entries' sweep.
      now.ms += 25 * HOUR;
      await store.community.recordPending(1_000);
      await store.deliveries.sweepPosted(now.ms - 24 * HOUR);
      expect((await store.deliveries.statusOf(GUILD)).muted).toEqual({});
    });

    it('counts the entries of each state: waiting, held and muted', async () => {
      underTest = await makeEngine();
      let store = await start();
      expect(await store.deliveries.countByState()).toEqual({ waiting: 0, held: 0, muted: 0 });
      await routeTo(store, CHANNEL_A);
      await store.guilds.update(GUILD, (s) => ({
        ...s,
        rules: [{ server: '456', event: 'modcall', channelId: null }],
      }));
      for (const id of ['w1', 'w2', 'w3']) await store.deliveries.accept(delivery(id));
      await store.deliveries.accept({ ...delivery('muted-1'), server: '456' });
      const [first] = await store.deliveries.nextFor(CHANNEL_A, 1);
      await store.deliveries.holdRefused([first?.seq ?? -1], 'Discord 400: Invalid Form Body', now.ms);
      expect(await store.deliveries.countByState()).toEqual({ waiting: 2, held: 1, muted: 1 });

      store = await restart(store);
      expect(await post(store, CHANNEL_A, 'n1')).toEqual(['w2', 'w3']);
      expect(await store.deliveries.countByState()).toEqual({ waiting: 0, held: 1, muted: 1 });
    });

    it('lists posted and muted deliveries page by page, and remembers ones posted elsewhere as duplicates', async () => {
      underTest = await makeEngine();
      let store = await start();
      await routeTo(store, CHANNEL_A);
      await store.guilds.update(GUILD, (s) => ({
        ...s,
        rules: [{ server: '456', event: 'modcall', channelId: null }],
      }));
      await store.deliveries.accept({ ...delivery('posted-1', 'case.created'), server: '123', caseType: 'ban' });
      await store.deliveries.accept(delivery('posted-2'));
      await store.deliveries.accept({ ...delivery('muted-1'), server: '456' });
      await store.deliveries.accept(delivery('waiting-1'));
      const entries = await store.deliveries.nextFor(CHANNEL_A, 2);
      await store.deliveries.writeDown(
        CHANNEL_A,
        'n1',
        entries.map((entry) => entry.seq),
      );
      await store.deliveries.ack(CHANNEL_A, 'n1', now.ms);

      const first = await store.deliveries.listPosted({ afterSeq: 0, limit: 2 });
      const rest = await store.deliveries.listPosted({ afterSeq: first.at(-1)?.seq ?? 0, limit: 2 });
      const posted = [...first, ...rest].map(({ seq: _seq, ...entry }) => entry);
      expect(posted).toEqual([
        {
          hookId: 'hook-1',
          guildId: GUILD,
          deliveryId: 'posted-1',
          event: 'case.created',
          server: '123',
          caseType: 'ban',
          receivedAt: 1_000,
          postedAt: now.ms,
          muted: false,
        },
        {
          hookId: 'hook-1',
          guildId: GUILD,
          deliveryId: 'posted-2',
          event: 'modcall',
          receivedAt: 1_000,
          postedAt: now.ms,
          muted: false,
        },
        {
          hookId: 'hook-1',
          guildId: GUILD,
          deliveryId: 'muted-1',
          event: 'modcall',
          server: '456',
          receivedAt: 1_000,
          postedAt: 1_000,
          muted: true,
        },
      ]);
      expect(rest).toHaveLength(1);

      // Another store's posted deliveries: remembered once, their retries duplicates, the muted one counted.
      const elsewhere = posted.map((entry) => ({ ...entry, hookId: 'hook-2' }));
      expect(await store.deliveries.rememberPosted(elsewhere)).toBe(3);
      expect(await store.deliveries.rememberPosted(elsewhere)).toBe(0);
      store = await restart(store);
      expect(await store.deliveries.accept({ ...delivery('posted-1', 'case.created', 'hook-2') })).toBe('duplicate');
      expect(await store.deliveries.stateOf('hook-2', 'muted-1')).toBe('posted');
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 1, muted: { modcall: 2 } });
      expect((await store.deliveries.nextFor(CHANNEL_A, 10)).map((entry) => entry.deliveryId)).toEqual(['waiting-1']);
      // They are forgotten with the rest, a day after they were posted.
      now.ms += 25 * HOUR;
      await store.community.recordPending(1_000);
      await store.deliveries.sweepPosted(now.ms - 24 * HOUR);
      expect(await store.deliveries.listPosted({ afterSeq: 0, limit: 10 })).toEqual([]);
    });

    it('parks a broken channel with its entries, keeps new ones aside, and tries it again after a routes change', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('b1'));
      await store.deliveries.holdBrokenChannel({
        channelId: CHANNEL_A,
        guildId: GUILD,
        status: 403,
        reason: 'Discord 403: Missing Access',
        since: now.ms,
      });
      await store.deliveries.accept(delivery('b2'));
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({
        waiting: 0,
        heldBroken: 2,
        broken: [{ channelId: CHANNEL_A, status: 403, reason: 'Discord 403: Missing Access' }],
      });
      expect(await store.deliveries.channelsWithWork()).toEqual([]);
      await routeTo(store, CHANNEL_A);
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 2, heldBroken: 0, broken: [] });
      expect(await store.deliveries.channelsWithWork()).toEqual([{ channelId: CHANNEL_A, guildId: GUILD }]);
    });

    it('sends a held entry again first in its lane, routes one elsewhere, and discards one for good', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      for (const id of ['h1', 'h2', 'h3']) await store.deliveries.accept(delivery(id));
      const [h1, h2] = await store.deliveries.nextFor(CHANNEL_A, 2);
      await store.deliveries.holdRefused([h1?.seq ?? -1], 'Discord 400: Invalid Form Body', now.ms);
      await store.deliveries.holdRefused([h2?.seq ?? -1], 'Discord 400: Invalid Form Body', now.ms);
      await store.deliveries.accept(delivery('h4'));
      expect((await store.deliveries.heldOne(GUILD, h1?.seq ?? -1))?.deliveryId).toBe('h1');
      expect(await store.deliveries.heldOne('another-guild', h1?.seq ?? -1)).toBeUndefined();

      // Retry: back in its lane with its own place, before what came after it.
      const work = new Promise((resolve) => {
        const stop = store.signals.subscribe((signal) => {
          if (signal.kind === 'work' && signal.channelId === CHANNEL_A) {
            stop();
            resolve(signal);
          }
        });
      });
      expect(await store.deliveries.requeueHeld(GUILD, h1?.seq ?? -1, CHANNEL_A, now.ms)).toBe(true);
      await work;
      expect((await store.deliveries.nextFor(CHANNEL_A, 10)).map((entry) => entry.deliveryId)).toEqual([
        'h1',
        'h3',
        'h4',
      ]);
      expect(await store.deliveries.requeueHeld(GUILD, h1?.seq ?? -1, CHANNEL_A, now.ms)).toBe(false);
      // Another server's entry cannot be touched.
      expect(await store.deliveries.requeueHeld('another-guild', h2?.seq ?? -1, CHANNEL_B, now.ms)).toBe(false);
      expect(await store.deliveries.discardHeld('another-guild', h2?.seq ?? -1, now.ms)).toBe(false);

      // Discard: gone from the open set and from /status, and the service's retry of it is still a duplicate.
      const openBefore = await store.deliveries.countOpen();
      expect(await store.deliveries.discardHeld(GUILD, h2?.seq ?? -1, now.ms)).toBe(true);
      expect(await store.deliveries.discardHeld(GUILD, h2?.seq ?? -1, now.ms)).toBe(false);
      expect(await store.deliveries.countOpen()).toBe(openBefore - 1);
      expect(await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 })).toEqual([]);
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ heldRefused: 0 });
      expect(await store.deliveries.accept(delivery('h2'))).toBe('duplicate');
    });

    it('retries a broken channel from one of its held entries: all of them wait again, in order', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('x1'));
      await store.deliveries.accept(delivery('x2'));
      await store.deliveries.holdBrokenChannel({
        channelId: CHANNEL_A,
        guildId: GUILD,
        status: 403,
        reason: 'Discord 403: Missing Access',
        since: now.ms,
      });
      const [first] = await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 });
      expect(await store.deliveries.requeueHeld(GUILD, first?.seq ?? -1, CHANNEL_A, now.ms)).toBe(true);
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 2, heldBroken: 0, broken: [] });
      expect((await store.deliveries.nextFor(CHANNEL_A, 10)).map((entry) => entry.deliveryId)).toEqual(['x1', 'x2']);
      // A refused entry can be routed to another channel.
      const [x1] = await store.deliveries.nextFor(CHANNEL_A, 1);
      await store.deliveries.holdRefused([x1?.seq ?? -1], 'Discord 400', now.ms);
      expect(await store.deliveries.requeueHeld(GUILD, x1?.seq ?? -1, CHANNEL_B, now.ms)).toBe(true);
      expect((await store.deliveries.nextFor(CHANNEL_B, 10)).map((entry) => entry.deliveryId)).toEqual(['x1']);
    });

    it('sends a message written down before a restart again, with the same entries and nonce', async () => {
      underTest = await makeEngine();
      let store = await start();
      await routeTo(store, CHANNEL_A);
      for (const id of ['w1', 'w2', 'w3']) await store.deliveries.accept(delivery(id));
      const entries = await store.deliveries.nextFor(CHANNEL_A, 2);
      expect(
        await store.deliveries.writeDown(
          CHANNEL_A,
          'nonce-1',
          entries.map((entry) => entry.seq),
        ),
      ).toBe(true);
      // Written down once: a second claim of the same entries is refused.
      expect(
        await store.deliveries.writeDown(
          CHANNEL_A,
          'nonce-2',
          entries.map((entry) => entry.seq),
        ),
      ).toBe(false);

      store = await restart(store);
      const again = await store.deliveries.nextFor(CHANNEL_A, 10);
      expect(again.map((entry) => [entry.deliveryId, entry.writtenNonce])).toEqual([
        ['w1', 'nonce-1'],
        ['w2', 'nonce-1'],
      ]);
      await store.deliveries.ack(CHANNEL_A, 'nonce-1', now.ms);
      expect((await store.deliveries.nextFor(CHANNEL_A, 10)).map((entry) => entry.deliveryId)).toEqual(['w3']);
    });

    it('remembers failures and when to retry a channel, and forgets them once a message goes through', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('r1'));
      expect(await store.deliveries.recordFailure(CHANNEL_A, GUILD, now.ms + 1_000)).toBe(1);
      expect(await store.deliveries.recordFailure(CHANNEL_A, GUILD, now.ms + 2_000)).toBe(2);
      expect(await store.deliveries.retryAtOf(CHANNEL_A)).toBe(now.ms + 2_000);
      expect((await store.deliveries.statusOf(GUILD)).retrying).toEqual([
        { channelId: CHANNEL_A, guildId: GUILD, failures: 2, nextTryAt: now.ms + 2_000 },
      ]);
      await post(store, CHANNEL_A, 'n1');
      expect(await store.deliveries.retryAtOf(CHANNEL_A)).toBeUndefined();
      expect((await store.deliveries.statusOf(GUILD)).retrying).toEqual([]);
    });

    it('stores hooks and their activity', async () => {
      underTest = await makeEngine();
      const store = await start();
      const hook = {
        hookId: 'hook-1',
        guildId: GUILD,
        webhookId: 'wh_1',
        secret: 'sealed',
        events: ['modcall'],
        createdAt: 5,
      };
      await store.hooks.save(hook);
      await store.hooks.save({ ...hook, hookId: 'hook-0', createdAt: 1 });
      expect(await store.hooks.get('hook-1')).toEqual(hook);
      expect((await store.hooks.listForGuild(GUILD)).map((h) => h.hookId)).toEqual(['hook-0', 'hook-1']);
      await store.activity.recordRefused('hook-1', 'signature_mismatch', 10);
      await store.activity.recordRefused('hook-1', 'stale_timestamp', 11);
      // What the service says of on/off is announced, for the health alerts of whichever process holds them.
      const announced = new Promise((resolve) => {
        const stop = store.signals.subscribe((signal) => {
          if (signal.kind === 'hook-state') {
            stop();
            resolve(signal);
          }
        });
      });
      await store.activity.recordState('hook-1', false, 12);
      expect(await announced).toEqual({ kind: 'hook-state', hookId: 'hook-1', enabled: false });
      expect(await store.activity.get('hook-1')).toMatchObject({
        refused: 2,
        refusedInARow: 2,
        lastRefusal: 'stale_timestamp',
        state: { enabled: false, at: 12 },
      });
      await store.deliveries.accept(delivery('a1'));
      expect(await store.activity.get('hook-1')).toMatchObject({
        lastDeliveryAt: 1_000,
        lastEvent: 'modcall',
        refused: 2,
        refusedInARow: 0,
      });
      // The service's ping counts as a delivery seen, and is heard by whoever waits for it.
      const heard = new Promise((resolve) => {
        const stop = store.signals.subscribe((signal) => {
          if (signal.kind === 'hook-outcome' && signal.outcome.ok && signal.outcome.event === 'ping') {
            stop();
            resolve(signal.outcome);
          }
        });
      });
      await store.activity.recordAccepted('hook-1', 'ping', 2_000);
      expect(await heard).toEqual({ ok: true, event: 'ping', at: 2_000 });
      expect(await store.activity.get('hook-1')).toMatchObject({ lastDeliveryAt: 2_000, lastEvent: 'ping' });
      // What another store knew of a hook replaces what this one knew.
      const elsewhere = {
        lastDeliveryAt: 3_000,
        lastEvent: 'shift.ended',
        refused: 7,
        refusedInARow: 3,
        lastRefusal: 'signature_mismatch' as const,
        state: { enabled: true, at: 2_500 },
      };
      await store.activity.restore('hook-1', elsewhere);
      expect(await store.activity.get('hook-1')).toEqual(elsewhere);
      await store.activity.restore('hook-0', { ...elsewhere, lastRefusal: undefined, state: undefined });
      expect(await store.activity.get('hook-0')).toEqual({ ...elsewhere, lastRefusal: undefined, state: undefined });
      await store.hooks.remove('hook-1');
      await store.activity.forget('hook-1');
      expect(await store.hooks.get('hook-1')).toBeUndefined();
      expect(await store.activity.get('hook-1')).toMatchObject({ refused: 0, lastDeliveryAt: undefined });
      expect((await store.hooks.listAll()).map((h) => h.hookId)).toEqual(['hook-0']);
    });

    it('keeps admin actions per server, newest first in the order stored, and forgets old ones', async () => {
      underTest = await makeEngine();
      const store = await start();
      const entry = (action: string, at: number, guildId = GUILD) => ({
        guildId,
        userId: 'u1',
        action,
        result: 'done' as const,
        detail: null,
        at,
      });
      // Same time for two: the order stored decides, not the clock.
      await store.audit.append(entry('/feed set', 10));
      await store.audit.append(entry('/alerts set', 20));
      await store.audit.append({ ...entry('/webhook test', 20), result: 'refused', detail: 'No server key yet.' });
      await store.audit.append(entry('/status', 30, 'another-guild'));
      expect((await store.audit.latest(GUILD, 25)).map((e) => e.action)).toEqual([
        '/webhook test',
        '/alerts set',
        '/feed set',
      ]);
      expect(await store.audit.latest(GUILD, 1)).toEqual([
        { ...entry('/webhook test', 20), result: 'refused', detail: 'No server key yet.' },
      ]);
      // Every server's, oldest first: what migrate-store copies.
      expect((await store.audit.listAll()).map((e) => [e.guildId, e.action])).toEqual([
        [GUILD, '/feed set'],
        [GUILD, '/alerts set'],
        [GUILD, '/webhook test'],
        ['another-guild', '/status'],
      ]);
      const reopened = await restart(store);
      expect(await reopened.audit.sweep(15)).toBe(1);
      expect((await reopened.audit.latest(GUILD, 25)).map((e) => e.action)).toEqual(['/webhook test', '/alerts set']);
    });

    it('forgets a guild it left, all at once: hooks, settings and server key, deliveries, documents; not another guild', async () => {
      underTest = await makeEngine();
      const store = await start();
      const other = '222222222222222229';
      const hook = (hookId: string, guildId = GUILD) => ({
        hookId,
        guildId,
        webhookId: `wh_${hookId}`,
        secret: 'sealed:v1:secret',
        events: ['all'],
        createdAt: 1,
      });
      await store.hooks.save(hook('hook-1'));
      await store.hooks.save(hook('hook-2'));
      await store.hooks.save(hook('hook-x', other));
      // Cached before it is forgotten: the cached copy must go with the row.
      expect(await store.hooks.get('hook-1')).toEqual(hook('hook-1'));
      await store.guilds.update(GUILD, (settings) => ({
        ...settings,
        serverKey: 'sealed:v1:server-key',
        routes: { modcall: CHANNEL_A },
      }));
      await store.guilds.update(other, (settings) => ({ ...settings, defaultChannelId: CHANNEL_B }));
      await store.deliveries.accept(delivery('posted'));
      expect(await post(store, CHANNEL_A, 'n1')).toEqual(['posted']);
      await store.deliveries.accept(delivery('waiting', 'modcall', 'hook-2'));
      await store.deliveries.accept(delivery('unrouted', 'shift.started'));
      await store.deliveries.accept({ ...delivery('elsewhere', 'modcall', 'hook-x'), guildId: other });
      await store.deliveries.recordFailure(CHANNEL_A, GUILD, now.ms + HOUR);
      await store.activity.recordRefused('hook-1', 'signature_mismatch', 10);
      await store.records.update('app_guild', GUILD, () => ({ developerKey: 'sealed:v1:developer-key' }));
      await store.records.update('app_cards', `${GUILD}:77`, () => ({ versions: {} }));
      await store.records.update('incident', `${GUILD}:held:`, () => null);
      await store.records.update('app_guild', other, () => ({ developerKey: 'sealed:v1:theirs' }));
      // Another guild whose id starts with this one's: its documents are its own.
      await store.records.update('app_guild', `${GUILD}9`, () => ({ developerKey: 'sealed:v1:longer' }));
      await store.records.update('heartbeat', 'last', () => 5);
      await store.duty.setBoardChannel(GUILD, CHANNEL_A);
      await store.duty.setBoardChannel(other, CHANNEL_B);
      // A guild with settings and no webhook is known too (its server key, its routes).
      const settingsOnly = '555555555555555555';
      await store.guilds.update(settingsOnly, (settings) => ({ ...settings, serverKey: 'sealed:v1:key-only' }));
      // So is a guild whose webhooks were removed but that keeps its weekly digest, or its on-shift role.
      const digestOnly = '666666666666666666';
      await store.digests.setSchedule({
        guildId: digestOnly,
        channelId: CHANNEL_B,
        weekday: 1,
        hour: 9,
        timeZone: 'UTC',
        nextAt: 1,
      });
      const dutyOnly = '777777777777777777';
      await store.duty.setRole(dutyOnly, '888888888888888888');
      expect((await store.knownGuilds()).sort()).toEqual([GUILD, other, settingsOnly, digestOnly, dutyOnly].sort());

      expect(await store.forgetGuild(GUILD)).toEqual({
        hooks: 2,
        serverKeys: 1,
        openDeliveries: 2,
        documents: 3,
        recordRows: 0,
        dutySettings: 1,
      });

      expect(await store.hooks.get('hook-1')).toBeUndefined();
      expect(await store.hooks.listForGuild(GUILD)).toEqual([]);
      expect(await store.activity.get('hook-1')).toMatchObject({ refused: 0, lastRefusal: undefined });
      expect(await store.guilds.get(GUILD)).toEqual(emptyGuildSettings(GUILD));
      for (const id of ['posted', 'waiting', 'unrouted']) {
        expect(await store.deliveries.stateOf(id === 'waiting' ? 'hook-2' : 'hook-1', id)).toBeUndefined();
      }
      expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 0, unrouted: {}, retrying: [] });
      expect(await store.deliveries.nextFor(CHANNEL_A, 10)).toEqual([]);
      expect(await store.records.get('app_guild', GUILD)).toBeUndefined();
      expect(await store.records.get('app_cards', `${GUILD}:77`)).toBeUndefined();
      expect(await store.records.kinds()).toEqual(['app_guild', 'heartbeat']);
      // The service's retry of a delivery it had posted finds no hook to go to.
      expect(await store.deliveries.accept(delivery('posted'), { requireHook: true })).toBe('unknown-hook');

      // The other guild keeps everything.
      expect((await store.hooks.listForGuild(other)).map((h) => h.hookId)).toEqual(['hook-x']);
      expect((await store.guilds.get(other)).defaultChannelId).toBe(CHANNEL_B);
      expect((await store.deliveries.listOpen()).map((entry) => entry.deliveryId)).toEqual(['elsewhere']);
      expect(await store.records.get('app_guild', other)).toEqual({ developerKey: 'sealed:v1:theirs' });
      expect(await store.records.get('app_guild', `${GUILD}9`)).toEqual({ developerKey: 'sealed:v1:longer' });
      expect((await store.duty.settingsOf(GUILD)).boardChannelId).toBeNull();
      expect((await store.duty.settingsOf(other)).boardChannelId).toBe(CHANNEL_B);

      expect((await store.knownGuilds()).sort()).toEqual([other, settingsOnly, digestOnly, dutyOnly].sort());

      // Nothing comes back after a restart, and forgetting again finds nothing.
      const reopened = await restart(store);
      expect((await reopened.knownGuilds()).sort()).toEqual([other, settingsOnly, digestOnly, dutyOnly].sort());
      expect(await reopened.hooks.get('hook-2')).toBeUndefined();
      expect((await reopened.guilds.get(GUILD)).serverKey).toBeNull();
      expect(await reopened.forgetGuild(GUILD)).toEqual({
        hooks: 0,
        serverKeys: 0,
        openDeliveries: 0,
        documents: 0,
        recordRows: 0,
        dutySettings: 0,
      });
      expect(await reopened.forgetGuild(digestOnly)).toMatchObject({ hooks: 0, recordRows: 1 });
      expect(await reopened.forgetGuild(dutyOnly)).toMatchObject({ hooks: 0, dutySettings: 1 });
      expect((await reopened.knownGuilds()).sort()).toEqual([other, settingsOnly].sort());
    });

    it('stores a delivery that requires its hook only while the hook is stored', async () => {
      underTest = await makeEngine();
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.hooks.save({
        hookId: 'hook-1',
        guildId: GUILD,
        webhookId: 'wh_1',
        secret: 'sealed',
        events: ['all'],
        createdAt: 1,
      });
      expect(await store.deliveries.accept(delivery('d1'), { requireHook: true })).toBe('accepted');
      expect(await store.deliveries.accept(delivery('d1'), { requireHook: true })).toBe('duplicate');
      // The service's ping, likewise.
      expect(await store.activity.recordAccepted('hook-1', 'ping', 1_500)).toBe(true);
      expect(await store.activity.recordAccepted('hook-never', 'ping', 1_500)).toBe(false);
      const never = delivery('d2', 'modcall', 'hook-never');
      expect(await store.deliveries.accept(never, { requireHook: true })).toBe('unknown-hook');
      expect(await store.deliveries.stateOf('hook-never', 'd2')).toBeUndefined();
      expect((await store.activity.get('hook-never')).lastDeliveryAt).toBeUndefined();
      // Removed while deliveries race it: each is stored before the removal commits, or refused after.
      const racing = Array.from({ length: 20 }, (_, i) =>
        store.deliveries.accept(delivery(`r${i}`), { requireHook: true }),
      );
      const removed = store.hooks.remove('hook-1');
      const outcomes = await Promise.all(racing);
      await removed;
      const stored = (await store.deliveries.listOpen()).map((entry) => entry.deliveryId);
      outcomes.forEach((outcome, i) => expect(stored.includes(`r${i}`)).toBe(outcome === 'accepted'));
      expect(await store.deliveries.accept(delivery('d3'), { requireHook: true })).toBe('unknown-hook');
      expect(await store.deliveries.stateOf('hook-1', 'd3')).toBeUndefined();
      const seen = await store.activity.get('hook-1');
      expect(await store.activity.recordAccepted('hook-1', 'ping', 2_000)).toBe(false);
      expect(await store.activity.get('hook-1')).toEqual(seen);
    });

    it('gives documents a time: lists the due ones earliest first, sweeps the old ones a slice at a time', async () => {
      underTest = await makeEngine();
      let store = await start();
      const at = (time: number) => () => time;
      for (const [key, time] of [
        ['e', 50],
        ['c', 30],
        ['a', 10],
        ['b', 30],
        ['d', 40],
      ] as const) {
        await store.records.update('timed', key, () => ({ key }), at(time));
      }
      await store.records.update('timed', 'untimed', () => ({ key: 'untimed' }));
      await store.records.update('other', 'x', () => ({ key: 'x' }), at(1));
      store = await restart(store);

      // Due at or before 30, by time then key; a document without a time is never due; other kinds stay out.
      expect(await store.records.listDue('timed', 30, 10)).toEqual([
        { key: 'a', value: { key: 'a' }, at: 10 },
        { key: 'b', value: { key: 'b' }, at: 30 },
        { key: 'c', value: { key: 'c' }, at: 30 },
      ]);
      expect((await store.records.listDue('timed', 1_000, 2)).map((record) => record.key)).toEqual(['a', 'b']);
      // A change may move a document's time, or take it away.
      await store.records.update('timed', 'a', (current) => current, at(45));
      await store.records.update('timed', 'b', (current) => current);
      expect((await store.records.listDue('timed', 1_000, 10)).map((record) => record.key)).toEqual([
        'c',
        'd',
        'a',
        'e',
      ]);
      expect(await store.records.list('timed')).toContainEqual({ key: 'a', value: { key: 'a' }, at: 45 });
      expect(await store.records.list('timed')).toContainEqual({ key: 'b', value: { key: 'b' } });

      // Before 46 are c (30), d (40) and a (45): two, then one, then none; the rest and the other kind stay.
      expect(await store.records.sweepBefore('timed', 46, 2)).toBe(2);
      expect(await store.records.sweepBefore('timed', 46, 2)).toBe(1);
      expect(await store.records.sweepBefore('timed', 46, 2)).toBe(0);
      expect((await store.records.list('timed')).map((record) => record.key)).toEqual(['b', 'e', 'untimed']);
      expect(await store.records.get('other', 'x')).toEqual({ key: 'x' });
    });

    it('deletes a document whose change returns undefined, leaving nothing behind', async () => {
      underTest = await makeEngine();
      let store = await start();
      await store.records.update(
        'card',
        'g:1',
        () => ({ messageId: 'm1' }),
        () => 10,
      );
      expect(await store.records.update('card', 'g:1', () => undefined)).toBeUndefined();
      // Deleting what is not there is no error, and stores nothing either.
      expect(await store.records.update('card', 'g:2', () => undefined)).toBeUndefined();
      store = await restart(store);
      expect(await store.records.get('card', 'g:1')).toBeUndefined();
      expect(await store.records.list('card')).toEqual([]);
      expect(await store.records.listDue('card', 1_000, 10)).toEqual([]);
      expect(await store.records.kinds()).toEqual([]);
    });

    it('drops held entries held before the cut, oldest first, a slice at a time, counted per guild', async () => {
      underTest = await makeEngine();
      let store = await start();
      const held = (id: string, guildId: string, receivedAt: number) => ({
        ...delivery(id, 'case.created'),
        guildId,
        receivedAt,
      });
      // No route: each is held (unrouted) from the moment it came.
      await store.deliveries.accept(held('old-1', GUILD, 100));
      await store.deliveries.accept(held('old-2', 'another-guild', 200));
      await store.deliveries.accept(held('old-3', GUILD, 300));
      await store.deliveries.accept(held('new-1', GUILD, 5_000));
      store = await restart(store);

      await store.community.recordPending(1_000);
      expect(await store.deliveries.dropHeld(1_000, 2)).toEqual([
        { guildId: GUILD, count: 1 },
        { guildId: 'another-guild', count: 1 },
      ]);
      expect(await store.deliveries.dropHeld(1_000, 2)).toEqual([{ guildId: GUILD, count: 1 }]);
      expect(await store.deliveries.dropHeld(1_000, 2)).toEqual([]);
      expect((await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 })).map((e) => e.deliveryId)).toEqual([
        'new-1',
      ]);
      expect(await store.deliveries.listHeld('another-guild', { offset: 0, limit: 10 })).toEqual([]);
      expect(await store.deliveries.stateOf('hook-1', 'old-1')).toBeUndefined();
      expect(await store.deliveries.countOpen()).toBe(1);
    });

    it('keeps documents by kind and key, changes each atomically, and lists the kinds it has', async () => {
      underTest = await makeEngine();
      let store = await start();
      expect(await store.records.kinds()).toEqual([]);
      await store.records.update('card', 'g:1', () => ({ messageId: 'm1' }));
      await store.records.update('alert_settings', GUILD, () => ({ channelId: CHANNEL_A }));
      await Promise.all(
        Array.from({ length: 20 }, () =>
          store.records.update('counter', 'x', (current) => (typeof current === 'number' ? current + 1 : 1)),
        ),
      );
      store = await restart(store);
      expect(await store.records.kinds()).toEqual(['alert_settings', 'card', 'counter']);
      expect(await store.records.get('counter', 'x')).toBe(20);
      expect(await store.records.list('card')).toEqual([{ key: 'g:1', value: { messageId: 'm1' } }]);
      await store.records.delete('card', 'g:1');
      expect(await store.records.kinds()).toEqual(['alert_settings', 'counter']);
    });
  });
}
