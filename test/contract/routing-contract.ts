import { describe, expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import type { NewDelivery } from '../../src/store/deliveries.js';
import { CHANNEL_A, CHANNEL_B, delivery, GUILD, HOUR, storeHarness, type StoreUnderTest } from './store-under-test.js';

/**
 * The store port's contract for routing: where each delivery goes by the guild's rules (by event, game server and case
 * type), what an off rule mutes, and the counts and lists of what is waiting, held, muted and posted.
 * `engine` names the engine in the test titles.
 */
export function describeRoutingContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the routing contract on ${engine}`, () => {
    const { now, start, restart, routeTo, post, use } = storeHarness();

    it('loses no update when two settings changes race', async () => {
      await use(makeEngine);
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

    it('routes by game server and case type, most specific rule first, and keeps that routing across re-routes', async () => {
      await use(makeEngine);
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
      await use(makeEngine);
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
      await store.of(recordModule).recordPending(1_000);
      await store.deliveries.sweepPosted(now.ms - 24 * HOUR);
      expect((await store.deliveries.statusOf(GUILD)).muted).toEqual({});
    });

    it('counts the entries of each state: waiting, held and muted', async () => {
      await use(makeEngine);
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

    it('knows when the first waiting entry was received, whatever is held, muted or posted before it', async () => {
      await use(makeEngine);
      let store = await start();
      expect(await store.deliveries.oldestWaitingAt()).toBeUndefined();
      await routeTo(store, CHANNEL_A);
      await store.guilds.update(GUILD, (s) => ({
        ...s,
        rules: [{ server: '456', event: 'modcall', channelId: null }],
      }));
      const at = (id: string, receivedAt: number): NewDelivery => ({ ...delivery(id), receivedAt });
      await store.deliveries.accept({ ...at('muted-1', now.ms - 50 * 60_000), server: '456' });
      for (const [id, ago] of [
        ['w1', 40],
        ['w2', 30],
        ['w3', 20],
      ] as const) {
        await store.deliveries.accept(at(id, now.ms - ago * 60_000));
      }
      expect(await store.deliveries.oldestWaitingAt()).toBe(now.ms - 40 * 60_000);
      // Held: no longer waiting (the held entries have a gauge of their own).
      const [first] = await store.deliveries.nextFor(CHANNEL_A, 1);
      await store.deliveries.holdRefused([first?.seq ?? -1], 'Discord 400: Invalid Form Body', now.ms);
      expect(await store.deliveries.oldestWaitingAt()).toBe(now.ms - 30 * 60_000);

      store = await restart(store);
      expect(await post(store, CHANNEL_A, 'n1')).toEqual(['w2', 'w3']);
      expect(await store.deliveries.oldestWaitingAt()).toBeUndefined();
    });

    it('lists posted and muted deliveries page by page, and remembers ones posted elsewhere as duplicates', async () => {
      await use(makeEngine);
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
      await store.of(recordModule).recordPending(1_000);
      await store.deliveries.sweepPosted(now.ms - 24 * HOUR);
      expect(await store.deliveries.listPosted({ afterSeq: 0, limit: 10 })).toEqual([]);
    });
  });
}
