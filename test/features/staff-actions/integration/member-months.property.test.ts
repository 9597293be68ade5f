import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { recordOf, type TimeRange } from '../../../../src/features/record/index.js';
import type { Store } from '../../../../src/store/store.js';
import { assertProperty } from '../../../properties/play-community.js';
import { ENGINES, openTestStore, type EngineDatabase } from './engines.js';
import { memberMonths, type PlainRecord } from './member-months-model.js';
import { writeRecordRows } from './record-rows.js';

/*
 * /staff history's figures by month (the record's memberMonths, over its indexes by member) are the plain model's of
 * the same rows, for every member and period: shifts, hours, cases that stand, claims once per card and the median
 * time to claim, each in the UTC month it began in, months on either side of a boundary kept apart.
 */

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const FROM = Date.UTC(2024, 11, 20);
const SPAN_DAYS = 800;
const MEMBERS = ['500000000000000001', '500000000000000002', '500000000000000003'];

/** A moment of the span: on a minute, or right at (or a millisecond before) the start of a month. */
const atArb = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: SPAN_DAYS * 24 * 60 }).map((minutes) => FROM + minutes * MINUTE) },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.integer({ min: 1, max: 26 }), fc.constantFrom(0, -1))
      .map(([months, shift]) => Date.UTC(2024, 11 + months, 1) + shift),
  },
);
const memberArb = fc.constantFrom<string | null>(...MEMBERS, null);

const recordArb: fc.Arbitrary<PlainRecord> = fc.record({
  shifts: fc.array(
    fc.record({ memberId: memberArb, at: atArb, seconds: fc.option(fc.integer({ min: 0, max: 30_000 })) }),
    { maxLength: 40 },
  ),
  cases: fc.array(fc.record({ moderatorId: memberArb, at: atArb, voided: fc.boolean() }), { maxLength: 40 }),
  calls: fc
    .array(
      fc.record({
        at: atArb,
        claimedBy: memberArb,
        wait: fc.integer({ min: 0, max: 3 * 60 * MINUTE }),
        card: fc.constantFrom('none', 'first', 'later'),
      }),
      { maxLength: 40 },
    )
    .map((calls) =>
      calls.map(({ at, claimedBy, wait, card }) => ({
        at,
        // A later call of a card names its card by the card's first call, a minute earlier.
        cardAt: card === 'none' ? null : card === 'first' ? at : at - MINUTE,
        claimedBy,
        claimedAt: claimedBy === null ? null : at + wait,
      })),
    ),
});

const rangeArb: fc.Arbitrary<TimeRange> = fc.oneof(
  fc.constant({ from: 0, to: Number.MAX_SAFE_INTEGER }),
  fc
    .tuple(fc.integer({ min: -5, max: SPAN_DAYS }), fc.integer({ min: 1, max: SPAN_DAYS }))
    .map(([start, length]) => ({ from: FROM + start * DAY, to: FROM + (start + length) * DAY })),
);

/** Per engine in `npm test`; each run writes up to 120 rows and compares every member's months. */
const RUNS = { SQLite: 40, PostgreSQL: 12 } as const;

async function writeRecord(url: string, guildId: string, record: PlainRecord): Promise<void> {
  await writeRecordRows(
    url,
    'record_shift',
    record.shifts.map((shift, i) => ({
      guild_id: guildId,
      server: 's1',
      shift_id: i,
      at: shift.at,
      member_id: shift.memberId,
      started_at: shift.at,
      ended_at: shift.seconds === null ? null : shift.at + shift.seconds * 1000,
      seconds: shift.seconds,
    })),
  );
  await writeRecordRows(
    url,
    'record_case',
    record.cases.map((made, i) => ({
      guild_id: guildId,
      server: 's1',
      number: i,
      at: made.at,
      type: 'warn',
      moderator_id: made.moderatorId,
      created_at: made.at,
      voided_at: made.voided ? made.at + MINUTE : null,
    })),
  );
  await writeRecordRows(
    url,
    'record_modcall',
    record.calls.map((call, i) => ({
      guild_id: guildId,
      server: 's1',
      caller_id: `caller-${i}`,
      at: call.at,
      card_at: call.cardAt,
      claimed_by: call.claimedBy,
      claimed_at: call.claimedAt,
    })),
  );
}

for (const engine of ENGINES) {
  describe.skipIf(engine.skip)(`a member's figures by month on ${engine.name}`, () => {
    let database: EngineDatabase | undefined;
    let store: Store | undefined;
    let guilds = 0;

    beforeAll(async () => {
      database = await engine.make();
      store = await openTestStore(database, { ms: FROM });
    });

    afterAll(async () => {
      await store?.close();
      await database?.drop();
    });

    it('are the plain model of the same rows, for every member and period', async () => {
      await assertProperty(
        fc.asyncProperty(recordArb, rangeArb, async (record, range) => {
          if (!store || !database) throw new Error('the store is not open');
          guilds += 1;
          const guildId = `7${String(guilds).padStart(17, '0')}`;
          await writeRecord(database.url, guildId, record);
          for (const memberId of MEMBERS) {
            expect(await recordOf(store).memberMonths(guildId, memberId, range), memberId).toEqual(
              memberMonths(record, memberId, range),
            );
          }
        }),
        RUNS[engine.name],
      );
    }, 120_000);
  });
}
