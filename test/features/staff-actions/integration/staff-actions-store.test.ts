import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { staffActionsModule } from '../../../../src/features/staff-actions/store/staff-actions-module.js';
import type {
  NewInfraction,
  NewPromotion,
  StaffActionsStore,
} from '../../../../src/features/staff-actions/store/staff-actions-store.js';
import type { Store } from '../../../../src/store/store.js';
import { ENGINES, openTestStore, type EngineDatabase } from './engines.js';

const GUILD = '222222222222222222';
const OTHER_GUILD = '333333333333333333';
const SAM = '500000000000000001';
const MIA = '500000000000000002';
const T0 = Date.UTC(2026, 10, 1, 12);
const DAY = 24 * 60 * 60 * 1000;

function infraction(requestId: string, changes: Partial<NewInfraction> = {}): NewInfraction {
  return {
    guildId: GUILD,
    requestId,
    memberId: SAM,
    type: 'strike',
    reason: 'left a modcall unclaimed',
    evidence: null,
    givenBy: MIA,
    givenAt: T0,
    expiresAt: T0 + 90 * DAY,
    ...changes,
  };
}

function promotion(requestId: string, changes: Partial<NewPromotion> = {}): NewPromotion {
  return {
    guildId: GUILD,
    requestId,
    memberId: SAM,
    direction: 'promote',
    fromRoleId: '600000000000000001',
    toRoleId: '600000000000000002',
    reason: null,
    givenBy: MIA,
    askedAt: T0,
    ...changes,
  };
}

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`the staff actions' store on ${engine.name}`, () => {
    let database: EngineDatabase;
    const stores: Store[] = [];
    const now = { ms: T0 };
    let staff: StaffActionsStore;

    beforeEach(async () => {
      database = await engine.make();
      const store = await openTestStore(database, now);
      stores.push(store);
      staff = store.of(staffActionsModule);
    });

    afterEach(async () => {
      for (const store of stores.splice(0)) await store.close();
      await database.drop();
    });

    it('writes an infraction once per interaction: a retry answers the first one, numbers go on per guild', async () => {
      const first = await staff.giveInfraction(infraction('interaction-1'));
      expect(first).toMatchObject({
        created: true,
        infraction: { number: 1, type: 'strike', card: null, voided: null },
      });
      const retried = await staff.giveInfraction(infraction('interaction-1', { reason: 'typed again' }));
      expect(retried).toEqual({ created: false, infraction: first.infraction });
      expect((await staff.giveInfraction(infraction('interaction-2'))).infraction.number).toBe(2);
      expect(
        (await staff.giveInfraction(infraction('interaction-1', { guildId: OTHER_GUILD }))).infraction.number,
      ).toBe(1);
      expect((await staff.infractionsOf(GUILD, SAM)).map((found) => found.number)).toEqual([2, 1]);
    });

    it('numbers infractions given at the same moment one each, none lost, none twice', async () => {
      const given = await Promise.all(
        Array.from({ length: 12 }, (_, i) => staff.giveInfraction(infraction(`at-once-${i}`))),
      );
      expect(given.map((found) => found.infraction.number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 12 }, (_, i) => i + 1),
      );
      expect(await staff.infractionsOf(GUILD, SAM)).toHaveLength(12);
    });

    it('voids an infraction once, keeping it with who, when and why', async () => {
      await staff.giveInfraction(infraction('interaction-1'));
      const voiding = { by: MIA, at: T0 + DAY, reason: 'a duplicate' };
      expect(await staff.voidInfraction(GUILD, 1, voiding)).toBe(true);
      expect(await staff.voidInfraction(GUILD, 1, { ...voiding, reason: 'again' })).toBe(false);
      expect(await staff.voidInfraction(GUILD, 9, voiding)).toBe(false);
      expect(await staff.infraction(GUILD, 1)).toMatchObject({ reason: 'left a modcall unclaimed', voided: voiding });
    });

    it('keeps a promotion only once Discord made it; one refused leaves nothing', async () => {
      const asked = await staff.askPromotion(promotion('p-1'));
      expect(asked).toMatchObject({ created: true, promotion: { doneAt: null } });
      expect(await staff.promotionsOf(GUILD, SAM)).toEqual([]);
      expect((await staff.askPromotion(promotion('p-1'))).created).toBe(false);
      await staff.confirmPromotion(GUILD, 'p-1', T0 + 1_000);
      await staff.askPromotion(promotion('p-2', { askedAt: T0 + 2_000 }));
      await staff.dropPromotion(GUILD, 'p-2');
      // A confirmed one is not dropped.
      await staff.dropPromotion(GUILD, 'p-1');
      expect(await staff.promotionsOf(GUILD, SAM)).toEqual([{ ...promotion('p-1'), doneAt: T0 + 1_000, card: null }]);
    });

    it('sweeps what is past its retention and unconfirmed promotions, in bounded slices', async () => {
      for (let i = 0; i < 5; i++) await staff.giveInfraction(infraction(`old-${i}`, { givenAt: T0 - (10 + i) * DAY }));
      await staff.giveInfraction(infraction('new', { givenAt: T0 }));
      await staff.askPromotion(promotion('stuck', { askedAt: T0 - 2 * DAY }));
      await staff.askPromotion(promotion('kept', { askedAt: T0 - 2 * DAY }));
      await staff.confirmPromotion(GUILD, 'kept', T0 - 2 * DAY);
      expect(await staff.sweep(T0 - 5 * DAY, T0 - DAY, 3)).toBe(3 + 1);
      expect(await staff.sweep(T0 - 5 * DAY, T0 - DAY, 3)).toBe(2);
      expect(await staff.sweep(T0 - 5 * DAY, T0 - DAY, 3)).toBe(0);
      expect((await staff.infractionsOf(GUILD, SAM)).map((found) => found.requestId)).toEqual(['new']);
      expect((await staff.promotionsOf(GUILD, SAM)).map((found) => found.requestId)).toEqual(['kept']);
    });

    it('forgets a guild whole, counting what it deleted, and keeps the other guild', async () => {
      const store = stores[0];
      if (!store) throw new Error('no store');
      await staff.setManagerRole(GUILD, '600000000000000009');
      await staff.setRanks(GUILD, ['600000000000000001', '600000000000000002']);
      await staff.giveInfraction(infraction('i-1'));
      await staff.askPromotion(promotion('p-1'));
      await staff.giveInfraction(infraction('i-1', { guildId: OTHER_GUILD }));
      expect(await staff.keptGuilds()).toEqual([GUILD, OTHER_GUILD].sort());
      expect(await store.knownGuilds()).toEqual(expect.arrayContaining([GUILD, OTHER_GUILD]));
      expect(await store.forgetGuild(GUILD)).toMatchObject({
        staffSettings: 1,
        staffInfractions: 1,
        staffPromotions: 1,
      });
      expect(await staff.ranksOf(GUILD)).toEqual([]);
      expect(await staff.infractionsOf(GUILD, SAM)).toEqual([]);
      expect(await staff.keptGuilds()).toEqual([OTHER_GUILD]);
    });

    it("copies a guild's settings, ladder, infractions and promotions into another store as they are", async () => {
      await staff.setManagerRole(GUILD, '600000000000000009');
      await staff.setLogChannel(GUILD, '700000000000000001');
      await staff.setRanks(GUILD, ['600000000000000002', '600000000000000001']);
      await staff.giveInfraction(infraction('i-1'));
      await staff.giveInfraction(infraction('i-2', { type: 'warning', expiresAt: null, evidence: 'a clip' }));
      await staff.voidInfraction(GUILD, 1, { by: MIA, at: T0 + DAY, reason: 'a duplicate' });
      await staff.noteInfractionCard(GUILD, 2, { channelId: '700000000000000001', messageId: '800000000000000001' });
      await staff.askPromotion(promotion('p-1'));
      await staff.confirmPromotion(GUILD, 'p-1', T0 + 1);
      const other = await engine.make();
      const target = await openTestStore(other, now);
      try {
        const copied = target.of(staffActionsModule);
        expect(await staffActionsModule.copy(staff, copied)).toBe(1);
        expect(await copied.rowsOf(GUILD)).toEqual(await staff.rowsOf(GUILD));
        // Numbers go on after the copied ones.
        expect((await copied.giveInfraction(infraction('i-3'))).infraction.number).toBe(3);
      } finally {
        await target.close();
        await other.drop();
      }
    });
  });
}
