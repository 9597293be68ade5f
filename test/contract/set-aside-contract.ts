import { beforeEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import type { Store } from '../../src/store/store.js';
import {
  caseCreated,
  CHANNEL,
  delivery,
  GUILD,
  OTHER_GUILD,
  player,
  recordAll,
  shift,
  T0,
  useRecordStores,
} from '../features/record/community-record-contract.js';
import type { StoreUnderTest } from './store-under-test.js';

const DAY = 24 * 60 * 60 * 1000;
const REFUSED = 'the test refuses this record_case row';

/** Writes down and confirms every waiting entry of the guild's channel, as the feed does once Discord took them. */
async function postAll(store: Store, postedAt: number): Promise<void> {
  const entries = await store.deliveries.nextFor(CHANNEL, 50);
  expect(
    await store.deliveries.writeDown(
      CHANNEL,
      'nonce-1',
      entries.map((entry) => entry.seq),
    ),
  ).toBe(true);
  await store.deliveries.ack(CHANNEL, 'nonce-1', postedAt);
}

function refusedCase(number: number) {
  const told = caseCreated(number, 'warn', T0);
  return { case: { ...told.case, reason: 'refused reason' } };
}

/**
 * One bad item never stops a batch job (set-aside.ts): the record's writer and its retention sweep go on without
 * it, keep it set aside in the store, and try it again after its backoff. Proven the same way on each engine,
 * with the item's failure made real by the database (a row it refuses) and text PostgreSQL refuses (U+0000).
 */
export function describeSetAsideContract(engine: string, makeEngine: () => Promise<StoreUnderTest>): void {
  describe(`items set aside on ${engine}`, () => {
    const { start, close, now, engine: underTest } = useRecordStores(makeEngine);
    beforeEach(() => {
      now.ms = T0;
    });

    it('records a delivery whose case reason and caller names carry NUL and other controls without them, its body as received, and the rest of its slice', async () => {
      const store = await start();
      const target = { robloxId: player.robloxId, name: 'Builder\u0000Bob\u0007' };
      const told = caseCreated(1, 'warn', T0, target);
      const bad = delivery('c-1', 'case.created', {
        case: { ...told.case, reason: 'spam\u0000 in\tchat\r\n\u001bagain\u0008' },
      });
      const call = delivery('m-1', 'modcall', { caller: { robloxId: '9002', name: 'Cal\u0000ler\u001f' }, at: T0 });
      await store.deliveries.accept(delivery('o-1', 'case.created', caseCreated(7, 'ban', T0), OTHER_GUILD));
      await store.deliveries.accept(bad);
      await store.deliveries.accept(call);
      await store.deliveries.accept(delivery('o-2', 'shift.started', shift(3, T0, null), OTHER_GUILD));

      expect(await store.of(recordModule).recordPending(200)).toMatchObject({ recorded: 4, setAside: 0 });
      expect(await store.of(recordModule).casesOf(GUILD, player.robloxId, { limit: 5, offset: 0 })).toMatchObject([
        { number: 1, targetName: 'BuilderBob', reason: 'spam in\tchat\r\nagain' },
      ]);
      expect(await store.of(recordModule).findPlayer(GUILD, 'builderbob')).toEqual({
        playerId: player.robloxId,
        name: 'BuilderBob',
      });
      const range = { from: T0 - DAY, to: T0 + DAY };
      expect(await store.of(recordModule).exportPage('modcalls', GUILD, range, undefined, 5)).toMatchObject([
        { caller_id: '9002', caller_name: 'Caller' },
      ]);
      // The other guild's deliveries of the same slice are recorded too.
      expect(await store.of(recordModule).caseTotals(OTHER_GUILD, player.robloxId)).toEqual([
        { type: 'ban', count: 1, voided: 0 },
      ]);
      expect((await store.of(recordModule).openShifts(OTHER_GUILD)).map((open) => open.shiftId)).toEqual([3]);
      // The bodies stay as received and signed, control characters and all.
      const bodies = (await store.deliveries.nextFor(CHANNEL, 10)).map((entry) => entry.rawBody);
      expect(bodies).toEqual([bad.rawBody, call.rawBody]);
      expect(bad.rawBody).toContain('Builder\\u0000Bob');
    });

    it('sets aside a delivery whose merge fails on its own, records the rest and later slices, and tries it again after its backoff', async () => {
      let store = await start();
      await underTest().refuseRows('record_case', 'INSERT', 'reason', 'refused reason');
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0)));
      await store.deliveries.accept(delivery('c-2', 'case.created', refusedCase(2)));
      await store.deliveries.accept(delivery('o-1', 'case.created', caseCreated(7, 'ban', T0), OTHER_GUILD));
      await store.deliveries.accept(delivery('s-1', 'shift.started', shift(1, T0, null)));
      // Posted before they are recorded: the one set aside must keep its body for its next try.
      await postAll(store, T0);

      const first = await store.of(recordModule).recordPending(200);
      expect(first).toMatchObject({ recorded: 3, skipped: 0, setAside: 1, givenUp: 0, shiftGuilds: [GUILD] });
      expect([...first.guilds].sort()).toEqual([GUILD, OTHER_GUILD]);
      const cases = async (guildId: string) =>
        (await store.of(recordModule).casesOf(guildId, player.robloxId, { limit: 10, offset: 0 })).map((c) => c.number);
      expect(await cases(GUILD)).toEqual([1]);
      expect(await cases(OTHER_GUILD)).toEqual([7]);
      const [aside, ...more] = await store.setAside.listForGuild(GUILD, 10);
      expect(more).toEqual([]);
      expect(aside).toEqual({
        job: 'record-writer',
        item: expect.any(String) as string,
        guildId: GUILD,
        label: 'case.created c-2',
        reason: expect.stringContaining(REFUSED) as string,
        attempts: 1,
        since: T0,
        retryAt: expect.any(Number) as number,
      });
      if (!aside) return;
      // The first backoff: a minute, at least half of it.
      expect(aside.retryAt).toBeGreaterThanOrEqual(T0 + 30_000);
      expect(aside.retryAt).toBeLessThanOrEqual(T0 + 60_000);
      expect(await store.setAside.countByJob()).toEqual({ 'record-writer': 1, 'record-sweep': 0 });
      expect(await store.setAside.listForGuild(OTHER_GUILD, 10)).toEqual([]);
      // Not waiting for the writer any more: /healthz's record lag does not grow with it.
      expect(await store.of(recordModule).oldestUnrecordedAt()).toBeUndefined();

      // Later slices go on, and the delivery set aside is not read again before its next try.
      await store.deliveries.accept(delivery('c-3', 'case.created', caseCreated(3, 'warn', T0)));
      expect(await store.of(recordModule).recordPending(200)).toMatchObject({ recorded: 1, setAside: 0 });
      now.ms = aside.retryAt - 1;
      expect(await store.of(recordModule).retrySetAside(10)).toMatchObject({ recorded: 0, setAside: 0 });
      expect(await cases(GUILD)).toEqual([3, 1]);

      // Due, and still refused: set aside again, for longer. It is in the store: a restart keeps it.
      now.ms = aside.retryAt;
      expect(await store.of(recordModule).retrySetAside(10)).toMatchObject({ recorded: 0, setAside: 1 });
      await close(store);
      store = await start();
      const [again] = await store.setAside.listForGuild(GUILD, 10);
      expect(again).toMatchObject({ item: aside.item, attempts: 2, since: T0, reason: aside.reason });
      expect(again?.retryAt).toBeGreaterThanOrEqual(now.ms + 60_000);
      expect(again?.retryAt).toBeLessThanOrEqual(now.ms + 120_000);

      // The cause is fixed; the host retries at once rather than wait: the case is recorded, nothing set aside.
      await underTest().allowRows('record_case', 'INSERT');
      expect(await store.setAside.retryNow(now.ms)).toBe(1);
      expect(await store.of(recordModule).retrySetAside(10)).toMatchObject({
        recorded: 1,
        setAside: 0,
        guilds: [GUILD],
      });
      expect(await cases(GUILD)).toEqual([3, 2, 1]);
      expect(await store.setAside.listForGuild(GUILD, 10)).toEqual([]);
      expect(await store.setAside.countByJob()).toEqual({ 'record-writer': 0, 'record-sweep': 0 });
      expect(await store.of(recordModule).retrySetAside(10)).toMatchObject({ recorded: 0, setAside: 0 });
    });

    it('keeps a delivery set aside with its body for 30 days, then gives it up and its body goes', async () => {
      const store = await start();
      await underTest().refuseRows('record_case', 'INSERT', 'reason', 'refused reason');
      await store.deliveries.accept(delivery('c-2', 'case.created', refusedCase(2)));
      await postAll(store, T0);
      expect(await store.of(recordModule).recordPending(200)).toMatchObject({ setAside: 1 });
      // Posted 25 h ago and more, but set aside: kept, body and all.
      now.ms = T0 + 29 * DAY;
      expect(await store.deliveries.sweepPosted(now.ms)).toBe(0);
      expect(await store.of(recordModule).retrySetAside(10)).toMatchObject({ setAside: 1, givenUp: 0 });
      now.ms = T0 + 30 * DAY + 1;
      await store.setAside.retryNow(now.ms);
      expect(await store.of(recordModule).retrySetAside(10)).toMatchObject({ recorded: 0, setAside: 0, givenUp: 1 });
      expect(await store.setAside.listForGuild(GUILD, 10)).toEqual([]);
      // No longer kept for the record: the posted delivery goes with the next sweep of posted ones.
      expect(await store.deliveries.sweepPosted(now.ms)).toBe(1);
    });

    it("sweeps the other guilds when one guild's old rows cannot be deleted, and sets that guild aside until its next try", async () => {
      const store = await start();
      // The guild's case is the oldest: the sweep visits it first.
      await store.deliveries.accept(delivery('c-1', 'case.created', caseCreated(1, 'warn', T0 - 500 * DAY)));
      await store.deliveries.accept(
        delivery('o-1', 'case.created', caseCreated(7, 'warn', T0 - 450 * DAY), OTHER_GUILD),
      );
      await recordAll(store);
      await underTest().refuseRows('record_case', 'DELETE', 'guild_id', GUILD);
      const totals = (guildId: string) => store.of(recordModule).caseTotals(guildId, player.robloxId);

      // The other guild's case and player go; the guild's case stays, set aside.
      expect(await store.of(recordModule).sweep(T0)).toBe(2);
      expect(await totals(OTHER_GUILD)).toEqual([]);
      expect(await totals(GUILD)).toHaveLength(1);
      const [aside] = await store.setAside.listForGuild(GUILD, 10);
      expect(aside).toMatchObject({
        job: 'record-sweep',
        item: GUILD,
        label: "the community record's retention sweep",
        attempts: 1,
        since: T0,
      });
      expect(aside?.reason).toContain(REFUSED);
      // The sweep's first backoff is an hour (at least half of it): the next hourly sweep may try it.
      expect(aside?.retryAt).toBeGreaterThanOrEqual(T0 + 30 * 60_000);
      expect(aside?.retryAt).toBeLessThanOrEqual(T0 + 60 * 60_000);
      expect(await store.setAside.countByJob()).toEqual({ 'record-writer': 0, 'record-sweep': 1 });

      // Before its next try the sweep leaves it alone; then it is tried, and swept once the cause is gone.
      expect(await store.of(recordModule).sweep(T0 + 1)).toBe(0);
      expect((await store.setAside.listForGuild(GUILD, 10))[0]?.attempts).toBe(1);
      expect(await store.of(recordModule).sweep((aside?.retryAt ?? 0) + 1)).toBe(0);
      expect((await store.setAside.listForGuild(GUILD, 10))[0]?.attempts).toBe(2);
      await underTest().allowRows('record_case', 'DELETE');
      // The host's retry at once: the next sweep tries it without waiting for its next try.
      const at = (aside?.retryAt ?? 0) + 2;
      expect(await store.setAside.retryNow(at, 'record-sweep')).toBe(1);
      expect(await store.of(recordModule).sweep(at + 1)).toBe(2);
      expect(await totals(GUILD)).toEqual([]);
      expect(await store.setAside.listForGuild(GUILD, 10)).toEqual([]);
    });

    it('forgets what it set aside of a guild the bot left', async () => {
      const store = await start();
      await underTest().refuseRows('record_case', 'INSERT', 'reason', 'refused reason');
      await store.deliveries.accept(delivery('c-2', 'case.created', refusedCase(2)));
      await store.deliveries.accept(delivery('o-2', 'case.created', refusedCase(2), OTHER_GUILD));
      expect(await store.of(recordModule).recordPending(200)).toMatchObject({ setAside: 2 });
      await store.forgetGuild(GUILD);
      expect(await store.setAside.listForGuild(GUILD, 10)).toEqual([]);
      expect(await store.setAside.countByJob()).toEqual({ 'record-writer': 1, 'record-sweep': 0 });
      expect(await store.setAside.listForGuild(OTHER_GUILD, 10)).toHaveLength(1);
    });
  });
}
