import { describe, expect, it } from 'vitest';

import { recordModule } from '../../../src/features/record/store/record-module.js';
import type { StoreUnderTest } from '../../contract/store-under-test.js';
import {
  caseCreated,
  delivery,
  GUILD,
  moderator,
  player,
  recordAll,
  shift,
  T0,
  useRecordStores,
} from './community-record-contract.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

function session(id: number, fields: { startedAt?: number; endedAt: number | null; peakPlayers?: number }) {
  return { session: { id, name: `Session ${id}`, ...fields } };
}

/** What a session's thread reads of the record (store/session-facts.ts), proven the same way on each engine. */
export function describeSessionFactsContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`a session's facts on ${engine}`, () => {
    const { start } = useRecordStores(makeEngine);

    it("reads what happened on the session's server while it ran: cases and modcalls in order, shifts that overlapped", async () => {
      const store = await start();
      const from = T0 - 2 * HOUR;
      const to = T0 - HOUR;
      const accept = (id: string, event: string, data: unknown, server = '123') =>
        store.deliveries.accept(delivery(id, event, data, GUILD, server));
      await accept('ss', 'session.started', session(5, { startedAt: from, endedAt: null, peakPlayers: 40 }));
      await accept('se', 'session.ended', { ...session(5, { endedAt: to }), stats: { joins: 61, cases: 3 } });
      await accept('c-late', 'case.created', caseCreated(3, 'kick', from + 30 * MIN));
      await accept('c-early', 'case.created', caseCreated(2, 'warn', from + 10 * MIN));
      await accept('c-before', 'case.created', caseCreated(1, 'ban', from - MIN));
      await accept('c-after', 'case.created', caseCreated(4, 'ban', to + MIN));
      await accept('c-elsewhere', 'case.created', caseCreated(9, 'ban', from + 5 * MIN), '456');
      await accept('m-1', 'modcall', { caller: player, at: from + 20 * MIN });
      await accept('m-out', 'modcall', { caller: player, at: to + 5 * MIN });
      // Before and through it; within it; long before (over 16 h, "never ended"); ended before it began.
      await accept('sh-1', 'shift.started', shift(1, from - 30 * MIN, null));
      await accept('sh-2', 'shift.ended', shift(2, from + 15 * MIN, from + 45 * MIN));
      await accept('sh-3', 'shift.started', shift(3, from - 20 * HOUR, null));
      await accept('sh-4', 'shift.ended', shift(4, from - 3 * HOUR, from - HOUR));
      expect(await recordAll(store)).toBe(13);

      const facts = await store.of(recordModule).sessionFacts(GUILD, '123', 5, T0, 100);
      expect(facts?.session).toEqual({
        server: '123',
        sessionId: 5,
        name: 'Session 5',
        startedAt: from,
        endedAt: to,
        peakPlayers: 40,
        joins: 61,
      });
      expect(facts?.cases.map((found) => [found.number, found.type, found.moderatorId])).toEqual([
        [2, 'warn', moderator.discordId],
        [3, 'kick', moderator.discordId],
      ]);
      expect(facts?.modcalls).toEqual([
        {
          at: from + 20 * MIN,
          calledAt: from + 20 * MIN,
          calls: 1,
          callerName: player.name,
          claimedBy: null,
          claimedAt: null,
          resolvedAt: null,
        },
      ]);
      expect(facts?.shifts.map((found) => [found.shiftId, found.startedAt, found.endedAt])).toEqual([
        [1, from - 30 * MIN, null],
        [2, from + 15 * MIN, from + 45 * MIN],
      ]);

      // At most `limit` of each, the earliest; a session with no start recorded has no facts.
      expect(
        (await store.of(recordModule).sessionFacts(GUILD, '123', 5, T0, 1))?.cases.map((found) => found.number),
      ).toEqual([2]);
      expect(await store.of(recordModule).sessionFacts(GUILD, '123', 6, T0, 100)).toBeUndefined();
      expect(await store.of(recordModule).sessionFacts(GUILD, '456', 5, T0, 100)).toBeUndefined();
    });

    it('reads a running session up to the time asked', async () => {
      const store = await start();
      const from = T0 - HOUR;
      await store.deliveries.accept(delivery('ss', 'session.started', session(8, { startedAt: from, endedAt: null })));
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', from + MIN)));
      await store.deliveries.accept(delivery('c-2', 'case.created', caseCreated(2, 'warn', from + 50 * MIN)));
      await recordAll(store);
      const facts = await store.of(recordModule).sessionFacts(GUILD, '123', 8, from + 30 * MIN, 100);
      expect(facts?.session.endedAt).toBeNull();
      expect(facts?.cases.map((found) => found.number)).toEqual([1]);
    });
  });
}
