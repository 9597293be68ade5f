import { afterEach, describe, expect, it } from 'vitest';

import type { Store } from '../../src/store/store.js';
import type { StoreUnderTest } from './store-under-test.js';

const GUILD = '222222222222222222';
const OTHER_GUILD = '333333333333333333';
const CHANNEL = '300000000000000001';
const ROLE = '600000000000000001';
const WEEK = 7 * 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 23, 18);

function schedule(guildId: string, nextAt: number) {
  return { guildId, channelId: CHANNEL, weekday: 1, hour: 18, timeZone: 'Europe/Berlin', nextAt };
}

/** The quotas' and weekly digest's contract (store/digests.ts), proven the same way on each engine. */
export function describeDigestsContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the quotas and the weekly digest on ${engine}`, () => {
    let underTest: StoreUnderTest;
    const open: Store[] = [];
    const start = async () => {
      const store = await underTest.open(() => T0);
      open.push(store);
      return store;
    };

    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
      await underTest.dispose();
    });

    it('keeps one quota per role, changed and cleared', async () => {
      underTest = await makeEngine();
      const store = await start();
      await store.digests.setQuota(GUILD, { roleId: ROLE, hours: 10, per: 'week' });
      await store.digests.setQuota(GUILD, { roleId: ROLE, hours: 40, per: 'month' });
      expect(await store.digests.quotasOf(GUILD)).toEqual([{ roleId: ROLE, hours: 40, per: 'month' }]);
      expect(await store.digests.quotasOf(OTHER_GUILD)).toEqual([]);
      expect(await store.digests.clearQuota(GUILD, ROLE)).toBe(true);
      expect(await store.digests.clearQuota(GUILD, ROLE)).toBe(false);
      expect(await store.digests.quotasOf(GUILD)).toEqual([]);
    });

    it('finds the schedules due, moves one on only from where it was seen, and forgets a guild', async () => {
      underTest = await makeEngine();
      const store = await start();
      await store.digests.setSchedule(schedule(GUILD, T0));
      await store.digests.setSchedule(schedule(OTHER_GUILD, T0 + WEEK));
      expect(await store.digests.dueSchedules(T0 - 1, 10)).toEqual([]);
      expect(await store.digests.dueSchedules(T0, 10)).toEqual([schedule(GUILD, T0)]);
      // An admin's new schedule meanwhile stands: moving on from the old time changes nothing.
      await store.digests.setSchedule({ ...schedule(GUILD, T0 + 3600_000), hour: 19 });
      await store.digests.advanceSchedule(GUILD, T0, T0 + WEEK);
      expect(await store.digests.scheduleOf(GUILD)).toEqual({ ...schedule(GUILD, T0 + 3600_000), hour: 19 });
      await store.digests.advanceSchedule(GUILD, T0 + 3600_000, T0 + WEEK + 3600_000);
      expect((await store.digests.dueSchedules(T0 + WEEK, 10)).map((due) => due.guildId)).toEqual([OTHER_GUILD]);

      await store.digests.setQuota(GUILD, { roleId: ROLE, hours: 10, per: 'week' });
      await store.digests.takePost(GUILD, T0, CHANNEL, T0, T0);
      expect((await store.forgetGuild(GUILD)).recordRows).toBe(3);
      expect(await store.digests.scheduleOf(GUILD)).toBeUndefined();
      expect(await store.digests.quotasOf(GUILD)).toEqual([]);
      expect(await store.digests.clearSchedule(OTHER_GUILD)).toBe(true);
      expect(await store.digests.clearSchedule(OTHER_GUILD)).toBe(false);
    });

    it("gives a week's post to one caller, to another once the first is stale, and never after it is posted", async () => {
      underTest = await makeEngine();
      const store = await start();
      const stale = T0 - 120_000;
      expect(await store.digests.takePost(GUILD, T0, CHANNEL, T0, stale)).toEqual({
        kind: 'taken',
        askedBefore: undefined,
      });
      // A second caller a moment later: the first is posting it.
      expect(await store.digests.takePost(GUILD, T0, CHANNEL, T0 + 1_000, stale)).toEqual({ kind: 'busy' });
      // Ten minutes on the first has not posted: it died; the next caller takes it over, told when it was taken.
      const later = T0 + 600_000;
      expect(await store.digests.takePost(GUILD, T0, CHANNEL, later, later - 120_000)).toEqual({
        kind: 'taken',
        askedBefore: T0,
      });
      expect(await store.digests.takePost(GUILD, T0, CHANNEL, later, later - 120_000)).toEqual({ kind: 'busy' });
      await store.digests.markPosted(GUILD, T0, '900000000000000001', later);
      expect(await store.digests.takePost(GUILD, T0, CHANNEL, T0 + WEEK, T0 + WEEK)).toEqual({
        kind: 'posted',
        messageId: '900000000000000001',
      });
      // Another week, another guild: their own posts.
      expect((await store.digests.takePost(GUILD, T0 + WEEK, CHANNEL, T0 + WEEK, stale)).kind).toBe('taken');
      expect((await store.digests.takePost(OTHER_GUILD, T0, CHANNEL, T0, stale)).kind).toBe('taken');

      // Kept a while, then swept by the week they covered.
      expect(await store.digests.sweepPosts(T0 + 1)).toBe(2);
      expect((await store.digests.takePost(GUILD, T0 + WEEK, CHANNEL, T0 + WEEK, stale)).kind).toBe('busy');
    });

    it('gives a week to one of several callers racing for it', async () => {
      underTest = await makeEngine();
      const store = await start();
      // At once: on PostgreSQL, each on a connection of its own.
      const takes = await Promise.all(
        Array.from({ length: 8 }, () => store.digests.takePost(GUILD, T0, CHANNEL, T0, T0)),
      );
      expect(takes.filter((take) => take.kind === 'taken')).toHaveLength(1);
    });
  });
}
