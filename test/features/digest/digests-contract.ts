import { afterEach, describe, expect, it } from 'vitest';

import { digestModule } from '../../../src/features/digest/store/digest-module.js';
import type { Store } from '../../../src/store/store.js';
import type { StoreUnderTest } from '../../contract/store-under-test.js';

const GUILD = '222222222222222222';
const OTHER_GUILD = '333333333333333333';
const CHANNEL = '300000000000000001';
const ROLE = '600000000000000001';
const WEEK = 7 * 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 23, 18);

function schedule(guildId: string, nextAt: number) {
  return { guildId, channelId: CHANNEL, weekday: 1, hour: 18, timeZone: 'Europe/Berlin', nextAt };
}

/** A schedule as the store reads it back: no failure, tried at its time. */
function stored(guildId: string, nextAt: number) {
  return { ...schedule(guildId, nextAt), failures: 0, tryAt: nextAt };
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
      await store.of(digestModule).setQuota(GUILD, { roleId: ROLE, hours: 10, per: 'week' });
      await store.of(digestModule).setQuota(GUILD, { roleId: ROLE, hours: 40, per: 'month' });
      expect(await store.of(digestModule).quotasOf(GUILD)).toEqual([{ roleId: ROLE, hours: 40, per: 'month' }]);
      expect(await store.of(digestModule).quotasOf(OTHER_GUILD)).toEqual([]);
      expect(await store.of(digestModule).clearQuota(GUILD, ROLE)).toBe(true);
      expect(await store.of(digestModule).clearQuota(GUILD, ROLE)).toBe(false);
      expect(await store.of(digestModule).quotasOf(GUILD)).toEqual([]);
    });

    it('finds the schedules due, moves one on only from where it was seen, and forgets a guild', async () => {
      underTest = await makeEngine();
      const store = await start();
      await store.of(digestModule).setSchedule(schedule(GUILD, T0));
      await store.of(digestModule).setSchedule(schedule(OTHER_GUILD, T0 + WEEK));
      expect(await store.of(digestModule).dueSchedules(T0 - 1, 10)).toEqual([]);
      expect(await store.of(digestModule).dueSchedules(T0, 10)).toEqual([stored(GUILD, T0)]);
      // An admin's new schedule meanwhile stands: moving on from the old time changes nothing.
      await store.of(digestModule).setSchedule({ ...schedule(GUILD, T0 + 3600_000), hour: 19 });
      await store.of(digestModule).advanceSchedule(GUILD, T0, T0 + WEEK);
      expect(await store.of(digestModule).scheduleOf(GUILD)).toEqual({ ...stored(GUILD, T0 + 3600_000), hour: 19 });
      await store.of(digestModule).advanceSchedule(GUILD, T0 + 3600_000, T0 + WEEK + 3600_000);
      expect((await store.of(digestModule).dueSchedules(T0 + WEEK, 10)).map((due) => due.guildId)).toEqual([
        OTHER_GUILD,
      ]);

      await store.of(digestModule).setQuota(GUILD, { roleId: ROLE, hours: 10, per: 'week' });
      await store.of(digestModule).takePost(GUILD, T0, CHANNEL, T0, T0);
      expect((await store.forgetGuild(GUILD)).digestRows).toBe(3);
      expect(await store.of(digestModule).scheduleOf(GUILD)).toBeUndefined();
      expect(await store.of(digestModule).quotasOf(GUILD)).toEqual([]);
      expect(await store.of(digestModule).clearSchedule(OTHER_GUILD)).toBe(true);
      expect(await store.of(digestModule).clearSchedule(OTHER_GUILD)).toBe(false);
    });

    it('passes over guilds backing off, so those due behind them are read; a backoff ends with its week', async () => {
      underTest = await makeEngine();
      const store = await start();
      // Eleven guilds whose digest keeps failing, due before the twelfth: more than one read of ten holds.
      const failing = Array.from({ length: 11 }, (_, i) => `4000000000000000${String(i).padStart(2, '0')}`);
      for (const [i, guildId] of failing.entries()) await store.of(digestModule).setSchedule(schedule(guildId, T0 + i));
      await store.of(digestModule).setSchedule(schedule(GUILD, T0 + 100));
      const firstRead = await store.of(digestModule).dueSchedules(T0 + 1_000, 10);
      expect(firstRead.map((due) => due.guildId)).toEqual(failing.slice(0, 10));

      // Each failed: backed off for a while.
      const later = T0 + 120_000;
      for (const due of firstRead) await store.of(digestModule).backOffSchedule(due.guildId, due.nextAt, later);
      expect((await store.of(digestModule).dueSchedules(T0 + 1_000, 10)).map((due) => due.guildId)).toEqual([
        failing[10],
        GUILD,
      ]);
      expect(await store.of(digestModule).scheduleOf(failing[0] ?? '')).toEqual({
        ...stored(failing[0] ?? '', T0),
        failures: 1,
        tryAt: later,
      });
      // Its time come, a guild backing off is read again, the oldest due first; a second failure counts.
      const retried = await store.of(digestModule).dueSchedules(later, 3);
      expect(retried.map((due) => due.guildId)).toEqual([failing[10], GUILD, failing[0]]);
      await store.of(digestModule).backOffSchedule(failing[0] ?? '', T0, later + 240_000);
      expect(await store.of(digestModule).scheduleOf(failing[0] ?? '')).toMatchObject({
        failures: 2,
        tryAt: later + 240_000,
      });
      // A backoff of a week no longer current (an admin set the schedule anew meanwhile) changes nothing.
      await store.of(digestModule).backOffSchedule(failing[0] ?? '', T0 - WEEK, later + 999_000);
      expect(await store.of(digestModule).scheduleOf(failing[0] ?? '')).toMatchObject({
        failures: 2,
        tryAt: later + 240_000,
      });

      // Posted at last (moved on), or set anew by an admin: tried at its time, the failures forgotten.
      await store.of(digestModule).advanceSchedule(failing[0] ?? '', T0, T0 + WEEK);
      expect(await store.of(digestModule).scheduleOf(failing[0] ?? '')).toEqual(stored(failing[0] ?? '', T0 + WEEK));
      await store.of(digestModule).setSchedule(schedule(failing[1] ?? '', T0 + 3_600_000));
      expect(await store.of(digestModule).scheduleOf(failing[1] ?? '')).toEqual(
        stored(failing[1] ?? '', T0 + 3_600_000),
      );
    });

    it("gives a week's post to one caller, to another once the first is stale, and never after it is posted", async () => {
      underTest = await makeEngine();
      const store = await start();
      const stale = T0 - 120_000;
      expect(await store.of(digestModule).takePost(GUILD, T0, CHANNEL, T0, stale)).toEqual({
        kind: 'taken',
        askedBefore: undefined,
      });
      // A second caller a moment later: the first is posting it.
      expect(await store.of(digestModule).takePost(GUILD, T0, CHANNEL, T0 + 1_000, stale)).toEqual({ kind: 'busy' });
      // Ten minutes on the first has not posted: it died; the next caller takes it over, told when it was taken.
      const later = T0 + 600_000;
      expect(await store.of(digestModule).takePost(GUILD, T0, CHANNEL, later, later - 120_000)).toEqual({
        kind: 'taken',
        askedBefore: T0,
      });
      expect(await store.of(digestModule).takePost(GUILD, T0, CHANNEL, later, later - 120_000)).toEqual({
        kind: 'busy',
      });
      await store.of(digestModule).markPosted(GUILD, T0, '900000000000000001', later);
      expect(await store.of(digestModule).takePost(GUILD, T0, CHANNEL, T0 + WEEK, T0 + WEEK)).toEqual({
        kind: 'posted',
        messageId: '900000000000000001',
      });
      // Another week, another guild: their own posts.
      expect((await store.of(digestModule).takePost(GUILD, T0 + WEEK, CHANNEL, T0 + WEEK, stale)).kind).toBe('taken');
      expect((await store.of(digestModule).takePost(OTHER_GUILD, T0, CHANNEL, T0, stale)).kind).toBe('taken');

      // Kept a while, then swept by the week they covered.
      expect(await store.of(digestModule).sweepPosts(T0 + 1)).toBe(2);
      expect((await store.of(digestModule).takePost(GUILD, T0 + WEEK, CHANNEL, T0 + WEEK, stale)).kind).toBe('busy');
    });

    it('gives a week to one of several callers racing for it', async () => {
      underTest = await makeEngine();
      const store = await start();
      // At once: on PostgreSQL, each on a connection of its own.
      const takes = await Promise.all(
        Array.from({ length: 8 }, () => store.of(digestModule).takePost(GUILD, T0, CHANNEL, T0, T0)),
      );
      expect(takes.filter((take) => take.kind === 'taken')).toHaveLength(1);
    });
  });
}
