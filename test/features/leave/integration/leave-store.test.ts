import { afterEach, describe, expect, it } from 'vitest';

import { leaveModule } from '../../../../src/features/leave/store/leave-module.js';
import type { NewLeave } from '../../../../src/features/leave/store/leave-store.js';
import type { Store } from '../../../../src/store/store.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const OTHER_GUILD = '333333333333333333';
const CHANNEL = '300000000000000001';
const ANA = '500000000000000001';
const BEN = '500000000000000002';
const MANAGER = '500000000000000009';
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 23);

function ask(memberId: string, fromDay: number, days: number, kind: NewLeave['kind'] = 'leave'): NewLeave {
  return {
    memberId,
    kind,
    startsAt: T0 + fromDay * DAY,
    endsAt: T0 + (fromDay + days) * DAY,
    reason: 'family',
    askedAt: T0,
  };
}

for (const engine of STORE_ENGINES) {
  describe.skipIf(!engine.available)(`leave in the store on ${engine.name}`, () => {
    let underTest: EngineDatabase;
    const open: Store[] = [];
    const start = async () => {
      underTest = await engine.create();
      const store = await underTest.open(() => T0);
      open.push(store);
      await store.of(leaveModule).setChannel(GUILD, CHANNEL, 'Europe/Berlin');
      return store;
    };
    afterEach(async () => {
      for (const store of open.splice(0)) await store.close();
      await underTest.dispose();
    });

    it('numbers a guild’s requests from 1, refuses an overlap of a pending or approved one, and nothing without a channel', async () => {
      const store = await start();
      const leave = store.of(leaveModule);
      const first = await leave.addRequest(GUILD, ask(ANA, 1, 3));
      expect(first).toMatchObject({ kind: 'stored', request: { number: 1, state: 'pending', work: 'card' } });
      expect(await leave.addRequest(GUILD, ask(BEN, 2, 1))).toMatchObject({ request: { number: 2 } });
      // Ana's days 1–3 are asked for: day 3 overlaps, day 4 (the day after the end) does not.
      expect(await leave.addRequest(GUILD, ask(ANA, 3, 2))).toEqual({ kind: 'overlaps' });
      expect(await leave.addRequest(GUILD, ask(ANA, 4, 2))).toMatchObject({ request: { number: 4 } });
      // A denied request holds no time.
      expect(await leave.decide(GUILD, 4, 'denied', MANAGER, T0)).toMatchObject({ state: 'denied', work: null });
      expect(await leave.addRequest(GUILD, ask(ANA, 4, 2))).toMatchObject({ request: { number: 5 } });
      expect(await leave.addRequest(OTHER_GUILD, ask(ANA, 10, 2))).toEqual({ kind: 'closed' });
      expect((await leave.requestsOf(GUILD, ANA, 10)).map((request) => request.number)).toEqual([5, 4, 1]);
      expect((await leave.overlapping(GUILD, ANA, T0 + 2 * DAY, T0 + 5 * DAY)).map((r) => r.number)).toEqual([1, 5]);
    });

    it('stores one of many overlapping requests sent at once', async () => {
      const store = await start();
      const leave = store.of(leaveModule);
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => leave.addRequest(GUILD, ask(ANA, i % 2, 3))),
      );
      expect(outcomes.filter((outcome) => outcome.kind === 'stored')).toHaveLength(1);
      expect(await leave.requestsOf(GUILD, ANA, 10)).toHaveLength(1);
    });

    it('lets one decision stand, and starts and ends an approved leave by its work due', async () => {
      const store = await start();
      const leave = store.of(leaveModule);
      await leave.addRequest(GUILD, ask(ANA, 1, 3));
      await leave.addRequest(GUILD, ask(BEN, 0, 2, 'reduced'));
      expect((await leave.due(T0, 10)).map((request) => [request.number, request.work])).toEqual([
        [1, 'card'],
        [2, 'card'],
      ]);
      await leave.setCard(GUILD, 1, CHANNEL, '900000000000000001');
      await leave.setCard(GUILD, 2, CHANNEL, '900000000000000002');
      expect(await leave.due(T0 + 10 * DAY, 10)).toEqual([]);

      const approved = await leave.decide(GUILD, 1, 'approved', MANAGER, T0);
      expect(approved).toMatchObject({ state: 'approved', decidedBy: MANAGER, work: 'start', tryAt: T0 + DAY });
      expect(await leave.decide(GUILD, 1, 'denied', BEN, T0)).toBeUndefined();
      await leave.decide(GUILD, 2, 'approved', MANAGER, T0);

      expect((await leave.due(T0, 10)).map((request) => request.number)).toEqual([2]);
      expect((await leave.due(T0 + DAY, 10)).map((request) => request.number)).toEqual([2, 1]);
      // A failed start backs off: it is not due again until then.
      await leave.backOff(GUILD, 2, 'start', T0 + 2 * DAY);
      expect((await leave.due(T0 + DAY, 10)).map((request) => request.number)).toEqual([1]);
      expect(await leave.moveOn(GUILD, 1, 'start', 'end', T0 + 4 * DAY)).toBe(true);
      // Moved on only from the work the caller did.
      expect(await leave.moveOn(GUILD, 1, 'start', null, null)).toBe(false);

      // Ben's reduced activity ended at the start of day 2 (its end is excluded); Ana's leave runs.
      expect(await leave.onLeaveAt(GUILD, T0 + 2 * DAY)).toEqual([
        { memberId: ANA, number: 1, kind: 'leave', startsAt: T0 + DAY, endsAt: T0 + 4 * DAY },
      ]);
      // Ana comes back early on day 2: her leave ends there, and its end is due at once.
      expect(await leave.endEarly(GUILD, 1, T0 + 2 * DAY)).toBe(true);
      expect(await leave.endEarly(GUILD, 1, T0 + 2 * DAY)).toBe(false);
      expect(await leave.requestOf(GUILD, 1)).toMatchObject({
        endsAt: T0 + 2 * DAY,
        plannedEnd: T0 + 4 * DAY,
        work: 'end',
        tryAt: T0 + 2 * DAY,
      });
      expect(await leave.onLeaveAt(GUILD, T0 + 3 * DAY)).toEqual([]);
      expect((await leave.leaveIn(GUILD, T0, T0 + 7 * DAY)).map((l) => l.number)).toEqual([2, 1]);
    });

    it('cancels a pending request or one not started, not a leave under way', async () => {
      const store = await start();
      const leave = store.of(leaveModule);
      await leave.addRequest(GUILD, ask(ANA, 1, 3));
      await leave.addRequest(GUILD, ask(BEN, 0, 3));
      await leave.decide(GUILD, 2, 'approved', MANAGER, T0);
      expect(await leave.cancel(GUILD, 2, T0 + DAY)).toBe(false);
      expect(await leave.cancel(GUILD, 1, T0)).toBe(true);
      expect(await leave.requestOf(GUILD, 1)).toMatchObject({ state: 'cancelled', work: null, tryAt: null });
      expect(await leave.addRequest(GUILD, ask(ANA, 1, 3))).toMatchObject({ kind: 'stored' });
    });

    it('keeps a role’s reduced quota until it is set without one, and forgets it with the guild', async () => {
      const store = await start();
      const leave = store.of(leaveModule);
      const ROLE = '600000000000000001';
      await leave.setReducedQuota(GUILD, ROLE, 4);
      await leave.setReducedQuota(GUILD, ROLE, 5);
      await leave.setReducedQuota(OTHER_GUILD, ROLE, 2);
      expect(await leave.reducedQuotasOf(GUILD)).toEqual(new Map([[ROLE, 5]]));
      await leave.setReducedQuota(GUILD, ROLE, null);
      expect(await leave.reducedQuotasOf(GUILD)).toEqual(new Map());
      await leave.setReducedQuota(GUILD, ROLE, 3);
      // The guild's settings row and its reduced quota.
      expect((await store.forgetGuild(GUILD))['leaveRows']).toBe(2);
      expect(await leave.reducedQuotasOf(GUILD)).toEqual(new Map());
      expect(await leave.reducedQuotasOf(OTHER_GUILD)).toEqual(new Map([[ROLE, 2]]));
    });

    it('forgets a guild’s leave with the guild, and sweeps requests ended long ago', async () => {
      const store = await start();
      const leave = store.of(leaveModule);
      await leave.addRequest(GUILD, ask(ANA, 1, 3));
      await leave.addRequest(GUILD, ask(ANA, 40, 3));
      await leave.noteRoleHolder(GUILD, { number: 1, memberId: ANA, roleId: '600000000000000001', givenAt: T0 });
      await leave.setChannel(OTHER_GUILD, CHANNEL, 'UTC');
      await leave.addRequest(OTHER_GUILD, ask(BEN, 20, 3));

      expect(await leave.sweep(T0 + 10 * DAY)).toBe(1);
      expect((await leave.requestsOf(GUILD, ANA, 10)).map((request) => request.number)).toEqual([2]);

      const forgotten = await store.forgetGuild(GUILD);
      expect(forgotten['leaveRows']).toBe(3);
      expect(await leave.requestsOf(GUILD, ANA, 10)).toEqual([]);
      expect(await leave.roleHolderOf(GUILD, 1)).toBeUndefined();
      expect((await leave.settingsOf(GUILD)).channelId).toBeNull();
      expect(await leave.requestsOf(OTHER_GUILD, BEN, 10)).toHaveLength(1);
    });
  });
}
