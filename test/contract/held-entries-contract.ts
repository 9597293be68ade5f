import { describe, expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import type { Store } from '../../src/store/store.js';
import { CHANNEL_A, CHANNEL_B, delivery, GUILD, storeHarness, type StoreUnderTest } from './store-under-test.js';

/**
 * The store port's contract for held entries: kept with their reason across a restart, a broken channel parked and
 * tried again, a held entry sent again, routed elsewhere or discarded, and old ones dropped a slice at a time.
 * `engine` names the engine in the test titles.
 */
export function describeHeldEntriesContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the held-entries contract on ${engine}`, () => {
    const { now, start, restart, routeTo, use } = storeHarness();
    /** Discord refused CHANNEL_A for good (403), as the feed reports it: the channel and its entries are held. */
    const holdChannelA = (store: Store) =>
      store.deliveries.holdBrokenChannel({
        channelId: CHANNEL_A,
        guildId: GUILD,
        status: 403,
        reason: 'Discord 403: Missing Access',
        since: now.ms,
      });

    it('keeps held entries with their reason across a restart, lists them, and routes them when a route comes', async () => {
      await use(makeEngine);
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

    it('parks a broken channel with its entries, keeps new ones aside, and tries it again after a routes change', async () => {
      await use(makeEngine);
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('b1'));
      await holdChannelA(store);
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
      await use(makeEngine);
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
      await use(makeEngine);
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('x1'));
      await store.deliveries.accept(delivery('x2'));
      await holdChannelA(store);
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

    it('drops held entries held before the cut, oldest first, a slice at a time, counted per guild', async () => {
      await use(makeEngine);
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

      await store.of(recordModule).recordPending(1_000);
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
  });
}
