import { describe, expect, it } from 'vitest';

import { describeModcallCounts } from '../../../src/features/record/index.js';
import { modcallCards } from '../../../src/features/record/store/migrations/0005-modcall-cards.js';
import { recordModule } from '../../../src/features/record/store/record-module.js';
import { renderSessionReport } from '../../../src/features/threads/session-report.js';
import type { StoreUnderTest } from '../../contract/store-under-test.js';
import {
  caseCreated,
  delivery,
  GUILD,
  moderator,
  player,
  recordAll,
  T0,
  useRecordStores,
} from './community-record-contract.js';

const MIN = 60_000;
const DAY = 24 * 60 * MIN;
const MOD = '400000000000000009';
const OTHER_CALLER = { robloxId: '9002', name: 'LostLarry' };
/** The week around T0 the figures are asked for. */
const WEEK = { from: T0 - 3 * DAY, to: T0 + 4 * DAY };

function session(id: number, startedAt: number, endedAt: number | null) {
  return { session: { id, name: `Session ${id}`, startedAt, endedAt } };
}

/**
 * What the record's figures count, the same way on each engine: a modcall card (however many calls it gathered) is
 * one claim with one response time in the leaderboard, /staff, the digest and the after-action report, while each
 * call still counts as a call; and a case.voided whose case.created the record never saw is no case in any figure.
 */
export function describeRecordFiguresContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`the record's figures on ${engine}`, () => {
    const { start, close, exec } = useRecordStores(makeEngine);

    it('count a card of three calls claimed once as one claim with one response time, and three calls', async () => {
      const store = await start();
      const accept = (id: string, event: string, data: unknown) =>
        store.deliveries.accept(delivery(id, event, data, GUILD, '123'));
      await accept('ss', 'session.started', session(5, T0 - 10 * MIN, null));
      await accept('se', 'session.ended', { ...session(5, T0 - 10 * MIN, T0 + 60 * MIN), stats: { joins: 3 } });
      const calls = [0, 1, 2].map((i) => ({ callerId: player.robloxId, at: T0 + i * MIN, callerName: player.name }));
      for (const [i, call] of calls.entries()) {
        await accept(`m-${i}`, 'modcall', { caller: player, at: call.at });
      }
      // Another caller's card: one call, never claimed.
      await accept('m-other', 'modcall', { caller: OTHER_CALLER, at: T0 + 10 * MIN });
      expect(await recordAll(store)).toBe(6);
      // The card gathered the three calls, and was claimed 200 s after the first.
      await store.of(recordModule).noteModcallHandled(GUILD, '123', calls, { claimedBy: MOD, claimedAt: T0 + 200_000 });

      expect(await store.of(recordModule).leaderboard(GUILD, 'modcalls', WEEK)).toEqual([
        { memberId: MOD, name: null, value: 1 },
      ]);
      const response = await store.of(recordModule).modcallResponse(GUILD, WEEK);
      expect(response).toEqual({
        calls: 4,
        cards: 2,
        claimed: 1,
        resolved: 0,
        toClaimMs: [200_000],
        toResolveMs: [],
        byMember: [{ memberId: MOD, claimed: 1, toClaimMs: [200_000] }],
      });
      // /staff response's and the digest's line.
      expect(describeModcallCounts(response)).toBe(
        '**4** calls on **2** cards · **1** claimed · **0** resolved · **1** never claimed',
      );
      expect(await store.of(recordModule).memberModcalls(GUILD, MOD, WEEK)).toEqual({
        calls: 3,
        cards: 1,
        claimed: 1,
        resolved: 0,
        toClaimMs: [200_000],
        toResolveMs: [],
      });
      // The digest's days count calls.
      expect((await store.of(recordModule).guildDays(GUILD, WEEK, 'UTC')).map((day) => day.modcalls)).toEqual([4]);

      const facts = await store.of(recordModule).sessionFacts(GUILD, '123', 5, T0 + DAY, 100);
      expect(facts?.modcalls).toEqual([
        {
          at: T0,
          calledAt: T0,
          calls: 3,
          callerName: player.name,
          claimedBy: MOD,
          claimedAt: T0 + 200_000,
          resolvedAt: null,
        },
        {
          at: T0 + 10 * MIN,
          calledAt: T0 + 10 * MIN,
          calls: 1,
          callerName: OTHER_CALLER.name,
          claimedBy: null,
          claimedAt: null,
          resolvedAt: null,
        },
      ]);
      if (!facts) throw new Error('no session facts');
      const report = renderSessionReport({ ...facts, session: { ...facts.session, endedAt: T0 + 60 * MIN } });
      expect(report.fields?.find((field) => field.name === 'Modcalls')?.value).toBe(
        '1 of 2 answered (4 calls) · median time to claim 3 min 20 s',
      );

      // A fourth call after the claim joins the card (told by the card before the writer merged it); resolved once.
      const withFourth = [...calls, { callerId: player.robloxId, at: T0 + 4 * MIN, callerName: player.name }];
      await store.of(recordModule).noteModcallHandled(GUILD, '123', withFourth, {
        claimedBy: MOD,
        claimedAt: T0 + 200_000,
        resolvedBy: MOD,
        resolvedAt: T0 + 300_000,
      });
      expect(await store.of(recordModule).modcallResponse(GUILD, WEEK)).toMatchObject({
        calls: 5,
        cards: 2,
        claimed: 1,
        resolved: 1,
        toClaimMs: [200_000],
        toResolveMs: [300_000],
      });
      // A card's claim counts in the period of its first call; its later calls count as calls where they came.
      const later = { from: T0 + 30_000, to: WEEK.to };
      expect(await store.of(recordModule).modcallResponse(GUILD, later)).toMatchObject({
        calls: 4,
        cards: 1,
        claimed: 0,
      });
      expect(await store.of(recordModule).leaderboard(GUILD, 'modcalls', later)).toEqual([]);
    });

    it('count a card whose earlier call came after it was claimed once, from and in the period of its first call', async () => {
      const store = await start();
      const call = (at: number) => ({ callerId: player.robloxId, at, callerName: player.name });
      // The call at T0 + 1 min came first and made the card, which was claimed; the call at T0 came late (a retry).
      await store.deliveries.accept(delivery('m-1', 'modcall', { caller: player, at: T0 + MIN }, GUILD, '123'));
      expect(await recordAll(store)).toBe(1);
      const claim = { claimedBy: MOD, claimedAt: T0 + 200_000 };
      await store.of(recordModule).noteModcallHandled(GUILD, '123', [call(T0 + MIN)], claim);
      await store.deliveries.accept(delivery('m-0', 'modcall', { caller: player, at: T0 }, GUILD, '123'));
      await store.of(recordModule).noteModcallHandled(GUILD, '123', [call(T0 + MIN), call(T0)], claim);
      expect(await recordAll(store)).toBe(1);

      const once = { calls: 2, cards: 1, claimed: 1, toClaimMs: [200_000] };
      expect(await store.of(recordModule).modcallResponse(GUILD, WEEK)).toMatchObject(once);
      expect(await store.of(recordModule).leaderboard(GUILD, 'modcalls', WEEK)).toEqual([
        { memberId: MOD, name: null, value: 1 },
      ]);
      expect(await store.of(recordModule).memberModcalls(GUILD, MOD, WEEK)).toMatchObject({
        claimed: 1,
        toClaimMs: [200_000],
      });
      // Its first call is at T0: a period from T0 + 30 s has its later call, not the card.
      const later = { from: T0 + 30_000, to: WEEK.to };
      expect(await store.of(recordModule).modcallResponse(GUILD, later)).toMatchObject({
        calls: 1,
        cards: 0,
        claimed: 0,
      });
      expect(await store.of(recordModule).leaderboard(GUILD, 'modcalls', later)).toEqual([]);

      // Told in either order, the card is the same: the card's calls given earliest first.
      await store.of(recordModule).noteModcallHandled(GUILD, '123', [call(T0), call(T0 + MIN)], claim);
      expect(await store.of(recordModule).modcallResponse(GUILD, WEEK)).toMatchObject(once);
    });

    it('count a case.voided whose case.created never reached the record as no case; the create later, once', async () => {
      const store = await start();
      const accept = (id: string, event: string, data: unknown) =>
        store.deliveries.accept(delivery(id, event, data, GUILD, '123'));
      await accept('ss', 'session.started', session(6, T0 - 60 * MIN, null));
      await accept('c-8', 'case.created', caseCreated(8, 'warn', T0 - 30 * MIN));
      const voided = { number: 7, type: 'kick', status: 'voided', target: player, voidedAt: T0, voidedBy: 'u1' };
      await accept('v-7', 'case.voided', { case: { ...voided, reason: 'as voided' } });
      expect(await recordAll(store)).toBe(3);

      const onlyCase8 = [{ type: 'warn', count: 1, voided: 0 }];
      expect(await store.of(recordModule).guildCases(GUILD, WEEK)).toEqual(onlyCase8);
      expect(await store.of(recordModule).staffCases(GUILD, moderator.discordId, WEEK)).toEqual(onlyCase8);
      expect((await store.of(recordModule).guildDays(GUILD, WEEK, 'UTC')).map((day) => day.cases)).toEqual([1]);
      expect(await store.of(recordModule).leaderboard(GUILD, 'cases', WEEK)).toEqual([
        { memberId: moderator.discordId, name: moderator.name, value: 1 },
      ]);
      const facts = await store.of(recordModule).sessionFacts(GUILD, '123', 6, T0 + MIN, 100);
      expect(facts?.cases.map((found) => found.number)).toEqual([8]);

      // Its case.created arrives: made the week before, it counts there, once, as voided; never in the void's week.
      await accept('c-7', 'case.created', caseCreated(7, 'kick', T0 - 10 * DAY));
      expect(await recordAll(store)).toBe(1);
      expect(await store.of(recordModule).guildCases(GUILD, WEEK)).toEqual(onlyCase8);
      const weekBefore = { from: T0 - 14 * DAY, to: WEEK.from };
      expect(await store.of(recordModule).guildCases(GUILD, weekBefore)).toEqual([
        { type: 'kick', count: 1, voided: 1 },
      ]);
      expect(await store.of(recordModule).staffCases(GUILD, moderator.discordId, weekBefore)).toEqual([
        { type: 'kick', count: 1, voided: 1 },
      ]);
      expect((await store.of(recordModule).guildDays(GUILD, weekBefore, 'UTC')).map((day) => day.cases)).toEqual([1]);
    });

    it('count each card once after an upgrade from a store whose modcalls named no card', async () => {
      const first = await start();
      await close(first);
      // The rows as the version before wrote them: every call of a card told its claim and resolution.
      const row = (caller: string, at: number, claimed: [string, number] | null, resolved: [string, number] | null) =>
        `('${GUILD}', '123', '${caller}', ${at}, 'Caller ${caller}', ${claimed ? `'${claimed[0]}', ${claimed[1]}` : 'NULL, NULL'},
          ${resolved ? `'${resolved[0]}', ${resolved[1]}` : 'NULL, NULL'})`;
      const claim: [string, number] = [MOD, T0 + 200_000];
      const resolution: [string, number] = [MOD, T0 + 300_000];
      await exec(`
        ALTER TABLE record_modcall DROP COLUMN card_at;
        INSERT INTO record_modcall (guild_id, server, caller_id, at, caller_name, claimed_by, claimed_at, resolved_by,
                                    resolved_at)
        VALUES ${[
          // A card of three calls, claimed and resolved.
          row('9001', T0, claim, resolution),
          row('9001', T0 + MIN, claim, resolution),
          row('9001', T0 + 2 * MIN, claim, resolution),
          // The same caller's next card, resolved without a claim; then another caller's, never answered.
          row('9001', T0 + 60 * MIN, null, [MOD, T0 + 61 * MIN]),
          row('9001', T0 + 61 * MIN, null, [MOD, T0 + 61 * MIN]),
          row('9002', T0 + 2 * 60 * MIN, null, null),
        ].join(', ')};
      `);
      // The step that gave each modcall its card (the same on both engines).
      await exec(modcallCards.sqlite ?? '');

      const store = await start();
      expect(await store.of(recordModule).modcallResponse(GUILD, WEEK)).toEqual({
        calls: 6,
        cards: 3,
        claimed: 1,
        resolved: 2,
        toClaimMs: [200_000],
        toResolveMs: [60_000, 300_000],
        byMember: [{ memberId: MOD, claimed: 1, toClaimMs: [200_000] }],
      });
      expect(await store.of(recordModule).leaderboard(GUILD, 'modcalls', WEEK)).toEqual([
        { memberId: MOD, name: null, value: 1 },
      ]);
      expect(await store.of(recordModule).memberModcalls(GUILD, MOD, WEEK)).toMatchObject({ claimed: 1, resolved: 2 });
    });
  });
}
