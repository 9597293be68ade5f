import { afterEach, describe, expect, it } from 'vitest';

import { dutyModule } from '../../../src/features/duty/store/duty-module.js';
import type { ExportRows } from '../../../src/features/record/store/record-export.js';
import { recordModule } from '../../../src/features/record/store/record-module.js';
import { SqlCommunityRecord } from '../../../src/features/record/store/sql-community-record.js';
import type { NewDelivery } from '../../../src/store/deliveries.js';
import type { Store } from '../../../src/store/store.js';
import type { StoreUnderTest } from '../../contract/store-under-test.js';

export const GUILD = '222222222222222222';
export const OTHER_GUILD = '333333333333333333';
export const CHANNEL = '300000000000000001';
const DAY = 24 * 60 * 60 * 1000;
export const T0 = Date.UTC(2026, 10, 20, 12);

/** A delivery as the intake stores it. */
export function delivery(id: string, event: string, data: unknown, guildId = GUILD, server = '123'): NewDelivery {
  const envelope = { id, event, server, at: T0, data };
  return {
    hookId: `hook-${guildId}`,
    guildId,
    deliveryId: id,
    event,
    server,
    rawBody: JSON.stringify(envelope),
    receivedAt: T0,
  };
}

export const player = { robloxId: '9001', name: 'BuilderBob' };
export const moderator = { discordId: '400000000000000001', name: 'Mod Mia' };

export function caseCreated(number: number, type: string, at: number, target = player) {
  return {
    case: {
      number,
      type,
      status: 'active',
      target,
      moderator,
      reason: `reason ${number}`,
      evidence: null,
      inGame: true,
      createdAt: at,
      voidedAt: null,
      voidedBy: null,
    },
  };
}

function caseVoided(number: number, type: string, at: number) {
  // A reason told by case.voided only fills a gap: case.created's stands, whichever arrives first.
  return {
    case: { number, type, status: 'voided', target: player, reason: 'as voided', voidedAt: at, voidedBy: 'u1' },
  };
}

export function shift(id: number, startedAt: number, endedAt: number | null) {
  return {
    shift: {
      id,
      discordId: '500000000000000001',
      name: 'Staff Sam',
      robloxId: '77',
      startedAt,
      endedAt,
      seconds: endedAt === null ? null : (endedAt - startedAt) / 1000,
    },
  };
}

/** Merges every stored update, as the record's writer does. */
export async function recordAll(store: Store): Promise<number> {
  let total = 0;
  for (;;) {
    const { recorded, skipped } = await store.of(recordModule).recordPending(2);
    total += recorded;
    if (recorded + skipped < 2) return total;
  }
}

/**
 * A store of the engine for each test that calls `start` (the engine made at its first call; the guild's default
 * channel set), on a clock the tests move (`now.ms`); closed, and the engine disposed, after the test.
 */
export function useRecordStores(makeEngine: () => Promise<StoreUnderTest>) {
  let underTest: StoreUnderTest | undefined;
  const open: Store[] = [];
  const now = { ms: T0 };
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
    await underTest?.dispose();
    underTest = undefined;
  });
  const start = async () => {
    underTest ??= await makeEngine();
    const store = await underTest.open(() => now.ms);
    open.push(store);
    await store.guilds.update(GUILD, (settings) => ({ ...settings, defaultChannelId: CHANNEL }));
    return store;
  };
  /** Closes a store before the test ends (a restart). */
  const close = async (store: Store) => {
    open.splice(open.indexOf(store), 1);
    await store.close();
  };
  /** Runs SQL on the test's database over a connection of its own (after `start` made the engine). */
  const exec = async (sql: string) => {
    if (!underTest) throw new Error('no engine: call start() first');
    await underTest.exec(sql);
  };
  /** The engine of the test, once a store was started (to make its database refuse rows). */
  const engine = () => {
    if (!underTest) throw new Error('no engine: start a store first');
    return underTest;
  };
  return { start, close, now, exec, engine };
}

/** The community record's contract (src/features/record/store/community-record.ts), proven the same way on each engine. */
export function describeCommunityRecordContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the community record on ${engine}`, () => {
    const { start, close, now } = useRecordStores(makeEngine);

    it('merges a case created and voided, in either order, once however often it is delivered', async () => {
      const store = await start();
      await store.deliveries.accept(delivery('v-2', 'case.voided', caseVoided(2, 'kick', T0 + 5_000)));
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0 - DAY)));
      await store.deliveries.accept(delivery('c-2', 'case.created', caseCreated(2, 'kick', T0)));
      // A retry of the same delivery is a duplicate; a resend under a new delivery id names the same case.
      expect(await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0 - DAY)))).toBe(
        'duplicate',
      );
      await store.deliveries.accept(delivery('c-1-again', 'case.created', caseCreated(1, 'warn', T0 - DAY)));
      expect(await recordAll(store)).toBe(4);
      expect(await recordAll(store)).toBe(0);

      expect(await store.of(recordModule).casesOf(GUILD, '9001', { limit: 10, offset: 0 })).toEqual([
        {
          server: '123',
          number: 2,
          at: T0,
          type: 'kick',
          targetId: '9001',
          targetName: 'BuilderBob',
          moderatorId: moderator.discordId,
          moderatorName: 'Mod Mia',
          reason: 'reason 2',
          voidedAt: T0 + 5_000,
          voidedBy: 'u1',
        },
        expect.objectContaining({ number: 1, at: T0 - DAY, type: 'warn' }),
      ]);
      expect(await store.of(recordModule).caseTotals(GUILD, '9001')).toEqual([
        { type: 'kick', count: 1, voided: 1 },
        { type: 'warn', count: 1, voided: 0 },
      ]);
      expect(await store.of(recordModule).casesOf(GUILD, '9001', { limit: 1, offset: 1 })).toMatchObject([
        { number: 1 },
      ]);
    });

    it('merges a shift ended before it started into one shift, and keeps the update until it is recorded', async () => {
      let store = await start();
      await store.deliveries.accept(delivery('s-end', 'shift.ended', shift(7, T0, T0 + 3_600_000)));
      await store.deliveries.accept(delivery('s-start', 'shift.started', shift(7, T0, null)));
      // Restarted before the writer ran: the updates were stored with their deliveries.
      await close(store);
      store = await start();
      expect(await recordAll(store)).toBe(2);
      // Counted by the retention sweep below: one shift, its one guild.
      now.ms = T0 + 401 * DAY;
      expect(await store.of(recordModule).sweep(now.ms)).toBe(1);
    });

    it('records what an off rule mutes, and the posted sweep keeps a delivery until it is recorded', async () => {
      const store = await start();
      await store.guilds.update(GUILD, (s) => ({ ...s, rules: [{ event: 'case.created', channelId: null }] }));
      await store.deliveries.accept(delivery('c-muted', 'case.created', caseCreated(3, 'ban', T0)));
      expect(await store.deliveries.sweepPosted(T0 + DAY)).toBe(0);
      expect(await recordAll(store)).toBe(1);
      expect(await store.deliveries.sweepPosted(T0 + DAY)).toBe(1);
      expect(await store.of(recordModule).caseTotals(GUILD, '9001')).toEqual([{ type: 'ban', count: 1, voided: 0 }]);
    });

    it('finds players by id, by name in any case, and by the start of their latest name', async () => {
      const store = await start();
      const renamed = { robloxId: '9001', name: 'BobTheBuilder' };
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0 - DAY)));
      await store.deliveries.accept(delivery('c-2', 'case.created', caseCreated(2, 'warn', T0, renamed)));
      const other = { robloxId: '42', name: 'Bobby' };
      await store.deliveries.accept(delivery('c-3', 'case.created', caseCreated(3, 'kick', T0, other)));
      await store.deliveries.accept(delivery('c-4', 'case.created', caseCreated(4, 'kick', T0, other), OTHER_GUILD));
      await recordAll(store);

      expect(await store.of(recordModule).findPlayers(GUILD, 'BOB', 10)).toEqual([
        { playerId: '42', name: 'Bobby' },
        { playerId: '9001', name: 'BobTheBuilder' },
      ]);
      expect(await store.of(recordModule).findPlayers(GUILD, 'bobb', 10)).toEqual([{ playerId: '42', name: 'Bobby' }]);
      expect(await store.of(recordModule).findPlayers(GUILD, 'x', 10)).toEqual([]);
      expect(await store.of(recordModule).findPlayer(GUILD, '9001')).toEqual({
        playerId: '9001',
        name: 'BobTheBuilder',
      });
      expect(await store.of(recordModule).findPlayer(GUILD, 'bobthebuilder')).toEqual({
        playerId: '9001',
        name: 'BobTheBuilder',
      });
      // The older name is not the player's any more.
      expect(await store.of(recordModule).findPlayer(GUILD, 'BuilderBob')).toBeUndefined();
      expect(await store.of(recordModule).findPlayer(OTHER_GUILD, '9001')).toBeUndefined();
    });

    it('keeps each guild its own retention, and forgets a guild the bot left', async () => {
      const store = await start();
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0 - 40 * DAY)));
      await store.deliveries.accept(delivery('c-2', 'case.created', caseCreated(2, 'warn', T0)));
      const old = caseCreated(1, 'warn', T0 - 40 * DAY);
      await store.deliveries.accept(delivery('o-1', 'case.created', old, OTHER_GUILD));
      await recordAll(store);
      expect(await store.of(recordModule).settingsOf(GUILD)).toEqual({ retentionDays: 400, staffRoleId: null });
      await store.of(recordModule).setRetentionDays(GUILD, 30);
      await store.of(recordModule).setStaffRole(GUILD, '600000000000000001');
      expect(await store.of(recordModule).settingsOf(GUILD)).toEqual({
        retentionDays: 30,
        staffRoleId: '600000000000000001',
      });
      await store.of(recordModule).setStaffRole(GUILD, null);
      expect(await store.of(recordModule).settingsOf(GUILD)).toEqual({ retentionDays: 30, staffRoleId: null });

      // The case and the player's name 40 days old go in the guild with 30 days; the other guild keeps its case.
      expect(await store.of(recordModule).sweep(T0)).toBe(1);
      expect(await store.of(recordModule).casesOf(GUILD, '9001', { limit: 10, offset: 0 })).toMatchObject([
        { number: 2 },
      ]);
      expect(await store.of(recordModule).caseTotals(OTHER_GUILD, '9001')).toEqual([
        { type: 'warn', count: 1, voided: 0 },
      ]);

      expect((await store.forgetGuild(GUILD)).recordRows).toBe(3);
      expect(await store.of(recordModule).casesOf(GUILD, '9001', { limit: 10, offset: 0 })).toEqual([]);
      expect(await store.of(recordModule).settingsOf(GUILD)).toEqual({ retentionDays: 400, staffRoleId: null });
      expect(await store.of(recordModule).caseTotals(OTHER_GUILD, '9001')).toHaveLength(1);
    });

    it('does not bring back the record of a guild forgotten while the writer merged its deliveries', async () => {
      const store = await start();
      const community = store.of(recordModule);
      if (!(community instanceof SqlCommunityRecord)) throw new Error('the record is not the shared SQL one');
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0)));
      await store.deliveries.accept(delivery('o-1', 'case.created', caseCreated(1, 'warn', T0), OTHER_GUILD));
      // The writer has read both deliveries when the bot is removed from the guild.
      const plan = await community.planPending(200);
      expect((await store.forgetGuild(GUILD)).recordRows).toBe(0);
      expect(await community.applyRecording(plan)).toEqual({
        recorded: 0,
        skipped: 0,
        setAside: 0,
        givenUp: 0,
        guilds: [],
        shiftGuilds: [],
        sessionGuilds: [],
      });
      expect(await community.findPlayer(GUILD, '9001')).toBeUndefined();
      // The next pass reads again: the other guild's case is recorded, the forgotten guild's record stays empty.
      expect(await recordAll(store)).toBe(1);
      expect(await community.findPlayer(GUILD, '9001')).toBeUndefined();
      expect(await community.caseTotals(GUILD, '9001')).toEqual([]);
      expect(await community.settingsOf(GUILD)).toEqual({ retentionDays: 400, staffRoleId: null });
      expect(await community.caseTotals(OTHER_GUILD, '9001')).toEqual([{ type: 'warn', count: 1, voided: 0 }]);
    });

    it('sweeps a guild again when a late delivery brings an older row, or its retention is shortened', async () => {
      const store = await start();
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0 - 10 * DAY)));
      await recordAll(store);
      expect(await store.of(recordModule).sweep(T0)).toBe(0);

      // A case 500 days old arrives late: its guild is due at once (the player's name is as new as case 1's).
      await store.deliveries.accept(delivery('c-0', 'case.created', caseCreated(0, 'kick', T0 - 500 * DAY)));
      await recordAll(store);
      expect(await store.of(recordModule).sweep(T0)).toBe(1);
      expect(await store.of(recordModule).caseTotals(GUILD, '9001')).toEqual([{ type: 'warn', count: 1, voided: 0 }]);

      // 7 days: case 1 and the player's name go at the next sweep, and nothing after.
      await store.of(recordModule).setRetentionDays(GUILD, 7);
      expect(await store.of(recordModule).sweep(T0)).toBe(2);
      expect(await store.of(recordModule).sweep(T0)).toBe(0);
      expect(await store.of(recordModule).caseTotals(GUILD, '9001')).toEqual([]);
    });

    it("exports a kind's rows of a period a page at a time, in time and then key order, ties never lost", async () => {
      const store = await start();
      const cases: Array<[string, number, number]> = [
        // server, number, when: three at T0 on two servers (text order: '123' before '9'), one each side of it.
        ['9', 1, T0],
        ['123', 7, T0],
        ['123', 3, T0],
        ['123', 4, T0 - DAY],
        ['9', 2, T0 + DAY],
        ['123', 5, T0 - 3 * DAY],
        ['123', 6, T0 + 2 * DAY],
      ];
      for (const [server, number, at] of cases) {
        await store.deliveries.accept(
          delivery(`c-${server}-${number}`, 'case.created', caseCreated(number, 'warn', at), GUILD, server),
        );
      }
      await store.deliveries.accept(delivery('other', 'case.created', caseCreated(8, 'ban', T0), OTHER_GUILD));
      await store.deliveries.accept(delivery('s-1', 'shift.ended', shift(1, T0, T0 + 3_600_000)));
      await recordAll(store);

      // From two days before T0 (case 5 is before) to two days after (case 6 is at the end, excluded).
      const range = { from: T0 - 2 * DAY, to: T0 + 2 * DAY };
      const pages: number[][] = [];
      let after: ExportRows['cases'] | undefined;
      for (;;) {
        const page = await store.of(recordModule).exportPage('cases', GUILD, range, after, 2);
        pages.push(page.map((row) => row.number));
        if (page.length < 2) break;
        after = page[page.length - 1];
      }
      expect(pages).toEqual([[4, 3], [7, 1], [2]]);
      const [first] = await store.of(recordModule).exportPage('cases', GUILD, range, undefined, 1);
      expect(first).toEqual({
        at: T0 - DAY,
        server: '123',
        number: 4,
        type: 'warn',
        target_id: '9001',
        target_name: 'BuilderBob',
        moderator_id: moderator.discordId,
        moderator_name: 'Mod Mia',
        reason: 'reason 4',
        created_at: T0 - DAY,
        voided_at: null,
        voided_by: null,
      });
      expect(await store.of(recordModule).exportPage('shifts', GUILD, range, undefined, 10)).toEqual([
        {
          at: T0,
          server: '123',
          shift_id: 1,
          member_id: '500000000000000001',
          member_name: 'Staff Sam',
          roblox_id: '77',
          started_at: T0,
          ended_at: T0 + 3_600_000,
          seconds: 3600,
        },
      ]);
      expect(await store.of(recordModule).exportPage('sessions', GUILD, range, undefined, 10)).toEqual([]);
      expect(await store.of(recordModule).exportPage('modcalls', OTHER_GUILD, range, undefined, 10)).toEqual([]);
    });

    it("lists a guild's open shifts oldest first and tells which guilds had shift changes merged", async () => {
      const store = await start();
      await store.deliveries.accept(delivery('s-1', 'shift.started', shift(1, T0 - 2 * 3_600_000, null)));
      // Shift 2 ended before its start arrived: never open.
      await store.deliveries.accept(delivery('e-2', 'shift.ended', shift(2, T0 - 3_600_000, T0)));
      await store.deliveries.accept(delivery('s-2', 'shift.started', shift(2, T0 - 3_600_000, null)));
      await store.deliveries.accept(delivery('s-3', 'shift.started', shift(3, T0 - 3 * 3_600_000, null)));
      await store.deliveries.accept(delivery('o-1', 'shift.started', shift(1, T0, null), OTHER_GUILD));
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0)));
      const pass = await store.of(recordModule).recordPending(100);
      expect(pass.recorded).toBe(6);
      expect([...pass.shiftGuilds].sort()).toEqual([GUILD, OTHER_GUILD]);
      const open = await store.of(recordModule).openShifts(GUILD);
      expect(open).toEqual([
        {
          server: '123',
          shiftId: 3,
          memberId: '500000000000000001',
          memberName: 'Staff Sam',
          startedAt: T0 - 3 * 3_600_000,
        },
        {
          server: '123',
          shiftId: 1,
          memberId: '500000000000000001',
          memberName: 'Staff Sam',
          startedAt: T0 - 2 * 3_600_000,
        },
      ]);
      await store.deliveries.accept(delivery('e-3', 'shift.ended', shift(3, T0 - 3 * 3_600_000, T0)));
      await store.deliveries.accept(delivery('c-2', 'case.created', caseCreated(2, 'warn', T0)));
      expect(await store.of(recordModule).recordPending(100)).toEqual({
        recorded: 2,
        skipped: 0,
        setAside: 0,
        givenUp: 0,
        guilds: [GUILD],
        shiftGuilds: [GUILD],
        sessionGuilds: [],
      });
      expect((await store.of(recordModule).openShifts(GUILD)).map((row) => row.shiftId)).toEqual([1]);
      // Shifts 2 and 3 ended at T0 (both Staff Sam's), begun within the last 4 hours.
      expect(await store.of(recordModule).membersOffShift(GUILD, T0 - 4 * 3_600_000, T0)).toEqual([
        '500000000000000001',
      ]);
      expect(await store.of(recordModule).membersOffShift(GUILD, T0 - 4 * 3_600_000, T0 + 1)).toEqual([]);
      expect(await store.of(recordModule).membersOffShift(GUILD, T0 - 30 * 60_000, T0)).toEqual([]);
      expect(await store.of(recordModule).membersOffShift(OTHER_GUILD, 0, 0)).toEqual([]);
      await store.deliveries.accept(delivery('c-3', 'case.created', caseCreated(3, 'warn', T0)));
      expect(await store.of(recordModule).recordPending(100)).toEqual({
        recorded: 1,
        skipped: 0,
        setAside: 0,
        givenUp: 0,
        guilds: [GUILD],
        shiftGuilds: [],
        sessionGuilds: [],
      });
    });

    it("keeps each guild's duty board and role, the board's message only while the board stays put", async () => {
      const store = await start();
      const none = { guildId: GUILD, boardChannelId: null, boardMessageId: null, roleId: null, roleSetBy: null };
      expect(await store.of(dutyModule).settingsOf(GUILD)).toEqual(none);
      await store.of(dutyModule).setBoardChannel(GUILD, CHANNEL);
      expect(await store.of(dutyModule).setBoardMessage(GUILD, CHANNEL, '700000000000000001')).toBe(true);
      await store.of(dutyModule).setRole(GUILD, '600000000000000009', '400000000000000001');
      await store.of(dutyModule).setRole(OTHER_GUILD, '600000000000000008', '400000000000000002');
      expect(await store.of(dutyModule).settingsOf(GUILD)).toEqual({
        guildId: GUILD,
        boardChannelId: CHANNEL,
        boardMessageId: '700000000000000001',
        roleId: '600000000000000009',
        roleSetBy: '400000000000000001',
      });
      // A board moved meanwhile: the old channel's message is not noted, and the new channel starts without one.
      await store.of(dutyModule).setBoardChannel(GUILD, '300000000000000002');
      expect(await store.of(dutyModule).setBoardMessage(GUILD, CHANNEL, '700000000000000002')).toBe(false);
      expect(await store.of(dutyModule).settingsOf(GUILD)).toMatchObject({
        boardChannelId: '300000000000000002',
        boardMessageId: null,
        roleId: '600000000000000009',
      });
      expect((await store.of(dutyModule).listConfigured()).map((row) => row.guildId)).toEqual([GUILD, OTHER_GUILD]);
      await store.of(dutyModule).setBoardChannel(GUILD, null);
      await store.of(dutyModule).setRole(GUILD, null, '400000000000000001');
      expect(await store.of(dutyModule).settingsOf(GUILD)).toEqual(none);
      expect((await store.of(dutyModule).listConfigured()).map((row) => row.guildId)).toEqual([OTHER_GUILD]);
    });

    it("keeps when the board's post was first tried until its id is noted or the board moves", async () => {
      const store = await start();
      expect(await store.of(dutyModule).askBoardPost(GUILD, CHANNEL, T0)).toBeUndefined();
      await store.of(dutyModule).setBoardChannel(GUILD, CHANNEL);
      expect(await store.of(dutyModule).askBoardPost(GUILD, CHANNEL, T0)).toBe(T0);
      // A later try of the same post counts Discord's nonce window from the first.
      expect(await store.of(dutyModule).askBoardPost(GUILD, CHANNEL, T0 + 60_000)).toBe(T0);
      expect(await store.of(dutyModule).askBoardPost(GUILD, '300000000000000002', T0)).toBeUndefined();
      await store.of(dutyModule).setBoardMessage(GUILD, CHANNEL, '700000000000000001');
      expect(await store.of(dutyModule).askBoardPost(GUILD, CHANNEL, T0 + 120_000)).toBe(T0 + 120_000);
      await store.of(dutyModule).setBoardChannel(GUILD, CHANNEL);
      expect(await store.of(dutyModule).askBoardPost(GUILD, CHANNEL, T0 + 180_000)).toBe(T0 + 180_000);
    });

    it("lists a guild's running sessions oldest first and tells which guilds had session changes merged", async () => {
      const store = await start();
      const session = (id: number, startedAt: number | undefined, endedAt: number | null) => ({
        session: { id, name: `Session ${id}`, ...(startedAt === undefined ? {} : { startedAt }), endedAt },
      });
      await store.deliveries.accept(delivery('ss-1', 'session.started', session(1, T0 - 3_600_000, null)));
      await store.deliveries.accept(
        delivery('ss-2', 'session.started', session(2, T0 - 7_200_000, null), GUILD, '456'),
      );
      // Session 3 ended before its start arrived: never running.
      await store.deliveries.accept(delivery('se-3', 'session.ended', session(3, undefined, T0)));
      await store.deliveries.accept(delivery('ss-3', 'session.started', session(3, T0 - 600_000, null)));
      await store.deliveries.accept(delivery('os-1', 'session.started', session(1, T0, null), OTHER_GUILD));
      await store.deliveries.accept(delivery('sh-1', 'shift.started', shift(1, T0, null)));
      const pass = await store.of(recordModule).recordPending(100);
      expect(pass.recorded).toBe(6);
      expect([...pass.sessionGuilds].sort()).toEqual([GUILD, OTHER_GUILD]);
      expect(pass.shiftGuilds).toEqual([GUILD]);
      expect(await store.of(recordModule).runningSessions(GUILD)).toEqual([
        { server: '456', sessionId: 2, name: 'Session 2', startedAt: T0 - 7_200_000 },
        { server: '123', sessionId: 1, name: 'Session 1', startedAt: T0 - 3_600_000 },
      ]);
      await store.deliveries.accept(delivery('se-2', 'session.ended', session(2, undefined, T0), GUILD, '456'));
      expect(await store.of(recordModule).recordPending(100)).toEqual({
        recorded: 1,
        skipped: 0,
        setAside: 0,
        givenUp: 0,
        guilds: [GUILD],
        shiftGuilds: [],
        sessionGuilds: [GUILD],
      });
      expect((await store.of(recordModule).runningSessions(GUILD)).map((row) => row.sessionId)).toEqual([1]);
      expect((await store.of(recordModule).runningSessions(OTHER_GUILD)).map((row) => row.sessionId)).toEqual([1]);
    });

    it('counts the sessions begun in a period, one whose end came first only once its start came', async () => {
      const store = await start();
      const session = (id: number, fields: { startedAt?: number; endedAt: number | null; peakPlayers?: number }) => ({
        session: { id, name: `Session ${id}`, ...fields },
        stats: { joins: 5, cases: 0 },
      });
      const period = { from: T0 - DAY, to: T0 + DAY };
      await store.deliveries.accept(
        delivery('ss-1', 'session.started', session(1, { startedAt: T0 - 7_200_000, endedAt: null, peakPlayers: 30 })),
      );
      await store.deliveries.accept(delivery('se-1', 'session.ended', session(1, { endedAt: T0 - 3_600_000 })));
      // Began before the period: not one of its sessions, however many players it had.
      await store.deliveries.accept(
        delivery('ss-2', 'session.started', session(2, { startedAt: T0 - 2 * DAY, endedAt: null, peakPlayers: 50 })),
      );
      // Its end came first: when it began, the record does not know yet.
      await store.deliveries.accept(delivery('se-3', 'session.ended', session(3, { endedAt: T0 })));
      await recordAll(store);
      expect(await store.of(recordModule).sessionTotals(GUILD, period)).toEqual({
        sessions: 1,
        seconds: 3600,
        peakPlayers: 30,
      });

      await store.deliveries.accept(
        delivery('ss-3', 'session.started', session(3, { startedAt: T0 - 1_800_000, endedAt: null, peakPlayers: 40 })),
      );
      await recordAll(store);
      expect(await store.of(recordModule).sessionTotals(GUILD, period)).toEqual({
        sessions: 2,
        seconds: 5400,
        peakPlayers: 40,
      });
      expect(await store.of(recordModule).sessionTotals(OTHER_GUILD, period)).toEqual({
        sessions: 0,
        seconds: 0,
        peakPlayers: null,
      });
    });

    it("keeps each guild's coverage minimum and since when it is short, reset by a new minimum", async () => {
      const store = await start();
      expect(await store.of(dutyModule).coverageOf(GUILD)).toEqual({
        guildId: GUILD,
        minimum: null,
        uncoveredSince: null,
      });
      // No minimum: nothing to be short of.
      await store.of(dutyModule).setUncoveredSince(GUILD, T0);
      expect(await store.of(dutyModule).coverageOf(GUILD)).toEqual({
        guildId: GUILD,
        minimum: null,
        uncoveredSince: null,
      });
      await store.of(dutyModule).setRole(GUILD, '600000000000000009', '400000000000000001');
      await store.of(dutyModule).setMinimum(GUILD, { staff: 3, afterMinutes: 10 });
      await store.of(dutyModule).setMinimum(OTHER_GUILD, { staff: 1, afterMinutes: 0 });
      await store.of(dutyModule).setUncoveredSince(GUILD, T0);
      expect(await store.of(dutyModule).coverageOf(GUILD)).toEqual({
        guildId: GUILD,
        minimum: { staff: 3, afterMinutes: 10 },
        uncoveredSince: T0,
      });
      expect((await store.of(dutyModule).listGuarded()).map((row) => row.guildId)).toEqual([GUILD, OTHER_GUILD]);
      // The board and role are left as they were.
      expect((await store.of(dutyModule).settingsOf(GUILD)).roleId).toBe('600000000000000009');
      await store.of(dutyModule).setMinimum(GUILD, { staff: 4, afterMinutes: 5 });
      expect(await store.of(dutyModule).coverageOf(GUILD)).toEqual({
        guildId: GUILD,
        minimum: { staff: 4, afterMinutes: 5 },
        uncoveredSince: null,
      });
      await store.of(dutyModule).setMinimum(GUILD, null);
      expect((await store.of(dutyModule).coverageOf(GUILD)).minimum).toBeNull();
      expect((await store.of(dutyModule).listGuarded()).map((row) => row.guildId)).toEqual([OTHER_GUILD]);
    });

    it('leaves out a delivery whose body tells nothing usable and goes on with the rest', async () => {
      const store = await start();
      await store.deliveries.accept({ ...delivery('bad', 'modcall', {}), rawBody: 'not json' });
      await store.deliveries.accept(delivery('call', 'modcall', { caller: player, at: T0 }));
      expect(await store.of(recordModule).recordPending(10)).toEqual({
        recorded: 1,
        skipped: 1,
        setAside: 0,
        givenUp: 0,
        guilds: [GUILD],
        shiftGuilds: [],
        sessionGuilds: [],
      });
      expect(await store.of(recordModule).recordPending(10)).toEqual({
        recorded: 0,
        skipped: 0,
        setAside: 0,
        givenUp: 0,
        guilds: [],
        shiftGuilds: [],
        sessionGuilds: [],
      });
    });

    it("sums a guild's shifts and cases per day of its time zone, a day being the zone's midnight to midnight", async () => {
      const store = await start();
      const at = (iso: string) => Date.parse(iso);
      // New York is UTC-5 in November: 03:00 UTC on the 21st is 22:00 on the 20th there.
      await store.deliveries.accept(delivery('c1', 'case.created', caseCreated(1, 'warn', at('2026-11-21T03:00:00Z'))));
      await store.deliveries.accept(
        delivery('s1', 'shift.ended', shift(1, at('2026-11-21T04:30:00Z'), at('2026-11-21T06:30:00Z'))),
      );
      await store.deliveries.accept(delivery('c2', 'case.created', caseCreated(2, 'kick', at('2026-11-21T05:15:00Z'))));
      // Kathmandu is UTC+5:45: 18:14 UTC is 23:59 on the 20th there, 18:15 UTC is midnight of the 21st.
      await store.deliveries.accept(delivery('c3', 'case.created', caseCreated(3, 'warn', at('2026-11-20T18:14:00Z'))));
      await store.deliveries.accept(delivery('c4', 'case.created', caseCreated(4, 'warn', at('2026-11-20T18:15:00Z'))));
      await recordAll(store);
      const range = { from: at('2026-11-19T00:00:00Z'), to: at('2026-11-23T00:00:00Z') };
      const day = (date: string) => at(`${date}T00:00:00Z`);
      expect(await store.of(recordModule).guildDays(GUILD, range, 'America/New_York')).toEqual([
        { day: day('2026-11-20'), shiftSeconds: 7200, cases: 3, modcalls: 0 },
        { day: day('2026-11-21'), shiftSeconds: 0, cases: 1, modcalls: 0 },
      ]);
      expect(await store.of(recordModule).guildDays(GUILD, range, 'Asia/Kathmandu')).toEqual([
        { day: day('2026-11-20'), shiftSeconds: 0, cases: 1, modcalls: 0 },
        { day: day('2026-11-21'), shiftSeconds: 7200, cases: 3, modcalls: 0 },
      ]);
      expect(await store.of(recordModule).guildDays(GUILD, range, 'UTC')).toEqual([
        { day: day('2026-11-20'), shiftSeconds: 0, cases: 2, modcalls: 0 },
        { day: day('2026-11-21'), shiftSeconds: 7200, cases: 2, modcalls: 0 },
      ]);
      expect(await store.of(recordModule).guildDays(OTHER_GUILD, range, 'UTC')).toEqual([]);
    });

    it("sums a member's shifts per UTC day they began on, in the range only", async () => {
      const store = await start();
      const midnight = Math.floor(T0 / DAY) * DAY;
      // Began a minute before midnight: counted on the day before, however long it ran.
      await store.deliveries.accept(delivery('a', 'shift.ended', shift(1, midnight - 60_000, midnight + 7_140_000)));
      await store.deliveries.accept(delivery('b', 'shift.ended', shift(2, midnight + 1_000, midnight + 3_601_000)));
      await store.deliveries.accept(delivery('c', 'shift.started', shift(3, midnight + 5_000, null)));
      await store.deliveries.accept(
        delivery('d', 'shift.ended', shift(4, midnight + 2 * DAY, midnight + 2 * DAY + 1_800_000)),
      );
      await recordAll(store);
      const member = '500000000000000001';
      expect(await store.of(recordModule).shiftDays(GUILD, member, { from: 0, to: midnight + 3 * DAY })).toEqual([
        { day: midnight - DAY, seconds: 7200 },
        { day: midnight, seconds: 3600 },
        { day: midnight + 2 * DAY, seconds: 1800 },
      ]);
      expect(await store.of(recordModule).shiftDays(GUILD, member, { from: midnight, to: midnight + DAY })).toEqual([
        { day: midnight, seconds: 3600 },
      ]);
      expect(await store.of(recordModule).shiftDays(OTHER_GUILD, member, { from: 0, to: midnight + 3 * DAY })).toEqual(
        [],
      );
    });
  });
}
