import { describe, expect, it } from 'vitest';

import { dutyModule } from '../../../src/features/duty/store/duty-module.js';
import { storeHarness, type StoreUnderTest } from '../../contract/store-under-test.js';

const GUILD = '222222222222222222';
const OTHER_GUILD = '333333333333333333';
const ROLE = '600000000000000001';
const NEW_ROLE = '600000000000000002';
const ANA = '400000000000000001';
const BEN = '400000000000000002';
const MANAGER = '400000000000000009';

/**
 * Whom the bot gave the on-duty role to (store/duty-store.ts's holders), proven the same way on each engine: kept
 * across a restart, per role, confirmed after Discord's answer, dropped once taken back, and forgotten with the
 * guild.
 */
export function describeDutyRoleHoldersContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the on-duty role's holders on ${engine}`, () => {
    const { use, start, restart } = storeHarness();

    it('keeps whom the role was given to across a restart, until it is taken back, and who chose the role', async () => {
      await use(makeEngine);
      const store = await start();
      await store.of(dutyModule).setRole(GUILD, ROLE, MANAGER);
      // Noted before the request to Discord, confirmed after.
      await store.of(dutyModule).noteRoleHolder(GUILD, { memberId: BEN, roleId: ROLE, givenAt: null });
      await store.of(dutyModule).noteRoleHolder(GUILD, { memberId: ANA, roleId: ROLE, givenAt: null });
      await store.of(dutyModule).noteRoleHolder(GUILD, { memberId: ANA, roleId: ROLE, givenAt: 5_000 });
      await store.of(dutyModule).noteRoleHolder(OTHER_GUILD, { memberId: ANA, roleId: ROLE, givenAt: 6_000 });

      const reopened = await restart(store);
      expect(await reopened.of(dutyModule).settingsOf(GUILD)).toMatchObject({ roleId: ROLE, roleSetBy: MANAGER });
      expect(await reopened.of(dutyModule).roleHoldersOf(GUILD)).toEqual([
        { memberId: ANA, roleId: ROLE, givenAt: 5_000 },
        { memberId: BEN, roleId: ROLE, givenAt: null },
      ]);

      // A new role: the old one's holders stay until it is taken from them, the new one's are its own.
      await reopened.of(dutyModule).setRole(GUILD, NEW_ROLE, MANAGER);
      await reopened.of(dutyModule).noteRoleHolder(GUILD, { memberId: ANA, roleId: NEW_ROLE, givenAt: 7_000 });
      await reopened.of(dutyModule).forgetRoleHolder(GUILD, ANA, ROLE);
      await reopened.of(dutyModule).forgetRoleHolder(GUILD, ANA, ROLE);
      expect(await reopened.of(dutyModule).roleHoldersOf(GUILD)).toEqual([
        { memberId: ANA, roleId: NEW_ROLE, givenAt: 7_000 },
        { memberId: BEN, roleId: ROLE, givenAt: null },
      ]);
      expect(await reopened.of(dutyModule).roleHoldersOf(OTHER_GUILD)).toEqual([
        { memberId: ANA, roleId: ROLE, givenAt: 6_000 },
      ]);
    });

    it('lists a guild whose role was turned off while members still hold it, until they no longer do', async () => {
      await use(makeEngine);
      const store = await start();
      await store.of(dutyModule).setRole(GUILD, ROLE, MANAGER);
      await store.of(dutyModule).noteRoleHolder(GUILD, { memberId: ANA, roleId: ROLE, givenAt: 5_000 });
      await store.of(dutyModule).setRole(GUILD, null, null);
      expect(await store.of(dutyModule).settingsOf(GUILD)).toMatchObject({ roleId: null, roleSetBy: null });
      expect((await store.of(dutyModule).listConfigured()).map((settings) => settings.guildId)).toEqual([GUILD]);
      await store.of(dutyModule).forgetRoleHolder(GUILD, ANA, ROLE);
      expect(await store.of(dutyModule).listConfigured()).toEqual([]);
    });

    it("forgets a guild's holders with the guild, and only its own", async () => {
      await use(makeEngine);
      const store = await start();
      await store.of(dutyModule).setRole(GUILD, ROLE, MANAGER);
      await store.of(dutyModule).noteRoleHolder(GUILD, { memberId: ANA, roleId: ROLE, givenAt: 5_000 });
      await store.of(dutyModule).noteRoleHolder(GUILD, { memberId: BEN, roleId: ROLE, givenAt: null });
      await store.of(dutyModule).noteRoleHolder(OTHER_GUILD, { memberId: ANA, roleId: ROLE, givenAt: 6_000 });
      expect(await store.knownGuilds()).toEqual(expect.arrayContaining([GUILD, OTHER_GUILD]));

      expect(await store.forgetGuild(GUILD)).toMatchObject({ dutySettings: 1, dutyRoleHolders: 2 });
      expect(await store.of(dutyModule).roleHoldersOf(GUILD)).toEqual([]);
      expect(await store.of(dutyModule).roleHoldersOf(OTHER_GUILD)).toHaveLength(1);
      // The other guild has holders and no settings row: it is still known, so it is forgotten when left.
      expect(await store.knownGuilds()).toEqual([OTHER_GUILD]);
    });
  });
}
