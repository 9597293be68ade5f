import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import { CHANNEL_A, CHANNEL_B, delivery, GUILD, HOUR, storeHarness, type StoreUnderTest } from './store-under-test.js';

/**
 * The store port's contract for the delivery queue: what every engine guarantees, proven the same way on each
 * (DESIGN.md, State): each delivery accepted once, in the store's order, written down before it is sent and sent again
 * after a restart, and kept at least 24 h after it was posted.
 * `engine` names the engine in the test titles.
 */
export function describeStoreContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the store contract on ${engine}`, () => {
    let underTest: StoreUnderTest;
    const { now, start, restart, routeTo, post, use } = storeHarness();

    it('keeps the message written down with its entries until it is confirmed or released, across a restart', async () => {
      underTest = await use(makeEngine);
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
      underTest = await use(makeEngine);
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
      underTest = await use(makeEngine);
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
      underTest = await use(makeEngine);
      const store = await start();
      await underTest.breakDeliveryWrites();
      await expect(store.deliveries.accept(delivery('lost'))).rejects.toThrow();
      await underTest.healDeliveryWrites();
      expect(await store.deliveries.stateOf('hook-1', 'lost')).toBeUndefined();
      expect(await store.deliveries.accept(delivery('lost'))).toBe('accepted');
    });

    it('stores a delivery that requires its hook only while the hook is stored', async () => {
      underTest = await use(makeEngine);
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
      expect(await store.activity.noteAccepted('hook-1', 'ping', 1_500)).toBe(true);
      expect(await store.activity.noteAccepted('hook-never', 'ping', 1_500)).toBe(false);
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
      expect(await store.activity.noteAccepted('hook-1', 'ping', 2_000)).toBe(false);
      expect(await store.activity.get('hook-1')).toEqual(seen);
    });

    it('orders concurrent accepts: one lane, each once, in the order the store assigned', async () => {
      underTest = await use(makeEngine);
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
      underTest = await use(makeEngine);
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('e1'));
      await post(store, CHANNEL_A, 'n1');
      expect(await store.deliveries.stateOf('hook-1', 'e1')).toBe('posted');
      // The community record's writer has read it (a delivery it has not read yet outlives its retention).
      await store.of(recordModule).recordPending(1_000);
      now.ms += 24 * HOUR;
      expect(await store.deliveries.sweepPosted(now.ms - 25 * HOUR)).toBe(0);
      expect(await store.deliveries.accept(delivery('e1'))).toBe('duplicate');
      now.ms += 2 * HOUR;
      expect(await store.deliveries.sweepPosted(now.ms - 25 * HOUR)).toBe(1);
      expect(await store.deliveries.accept(delivery('e1'))).toBe('accepted');
    });

    it('sends a message written down before a restart again, with the same entries and nonce', async () => {
      underTest = await use(makeEngine);
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
      underTest = await use(makeEngine);
      const store = await start();
      await routeTo(store, CHANNEL_A);
      await store.deliveries.accept(delivery('r1'));
      expect(await store.deliveries.noteFailure(CHANNEL_A, GUILD, now.ms + 1_000)).toBe(1);
      expect(await store.deliveries.noteFailure(CHANNEL_A, GUILD, now.ms + 2_000)).toBe(2);
      expect(await store.deliveries.retryAtOf(CHANNEL_A)).toBe(now.ms + 2_000);
      expect((await store.deliveries.statusOf(GUILD)).retrying).toEqual([
        { channelId: CHANNEL_A, guildId: GUILD, failures: 2, nextTryAt: now.ms + 2_000 },
      ]);
      await post(store, CHANNEL_A, 'n1');
      expect(await store.deliveries.retryAtOf(CHANNEL_A)).toBeUndefined();
      expect((await store.deliveries.statusOf(GUILD)).retrying).toEqual([]);
    });
  });
}
