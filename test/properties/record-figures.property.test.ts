import fc from 'fast-check';
import { expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import type { TimeRange } from '../../src/features/record/store/record-queries.js';
import type { Store } from '../../src/store/store.js';
import { communityArb, DAY, HOUR, MINUTE, PLAYERS, scheduleArb, STAFF, type Span } from './community-events.js';
import { assertProperty, describeOnEngines, playCommunity } from './play-community.js';
import * as model from './record-model.js';

/*
 * The community record's figures do not depend on the order or repetition of its deliveries: a community's events,
 * delivered shuffled and repeated (voids before their cases, ends before their starts), the clicks on its modcall cards
 * in between and the record writer's passes anywhere; at a few moments, and at the end, every figure the commands and
 * the digest read (record-queries.ts) is the plain model's (record-model.ts) of what the bot was told so far.
 */

/** Four days around a change of daylight saving time in Europe (29 March 2026). */
const SPAN: Span = { from: Date.UTC(2026, 2, 27), minutes: (4 * DAY) / MINUTE };
const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kathmandu', 'Australia/Lord_Howe'];

/** A period as the commands ask for one: on the minute, around the span, now and then all of time. */
const rangeArb: fc.Arbitrary<TimeRange> = fc.oneof(
  { weight: 1, arbitrary: fc.constant({ from: 0, to: Number.MAX_SAFE_INTEGER }) },
  {
    weight: 4,
    arbitrary: fc
      .tuple(fc.integer({ min: -60, max: SPAN.minutes + 60 }), fc.integer({ min: 0, max: SPAN.minutes }))
      .map(([start, length]) => ({
        from: SPAN.from + start * MINUTE,
        to: SPAN.from + (start + length) * MINUTE + HOUR,
      })),
  },
);

const communityAndSchedule = communityArb(SPAN).chain((community) =>
  fc.record({
    community: fc.constant(community),
    steps: scheduleArb(community),
    range: rangeArb,
    timeZone: fc.constantFrom(...ZONES),
  }),
);

/** Runs per engine in `npm test`: each run plays about 40 deliveries and compares every figure up to three times. */
const RUNS = { SQLite: 60, PostgreSQL: 15 } as const;

/** Every figure the commands and the digest read, from the store and from the model, side by side. */
async function compareFigures(
  store: Store,
  guildId: string,
  known: model.Known,
  range: TimeRange,
  timeZone: string,
): Promise<void> {
  const record = store.of(recordModule);
  for (const board of ['shifts', 'cases', 'modcalls'] as const) {
    expect(await record.leaderboard(guildId, board, range), `leaderboard ${board}`).toEqual(
      model.leaderboard(known, board, range),
    );
  }
  expect(await record.guildCases(guildId, range), 'guild cases').toEqual(model.guildCases(known, range));
  expect(await record.modcallResponse(guildId, range), 'modcall response').toEqual(model.modcallResponse(known, range));
  expect(await record.sessionTotals(guildId, range), 'session totals').toEqual(model.sessionTotals(known, range));
  expect(await record.guildDays(guildId, range, timeZone), `days in ${timeZone}`).toEqual(
    model.guildDays(known, range, timeZone),
  );
  expect(await record.openShifts(guildId), 'open shifts').toEqual(model.openShifts(known));
  expect(await record.runningSessions(guildId), 'running sessions').toEqual(model.runningSessions(known));
  for (const { id } of STAFF) {
    expect(await record.staffCases(guildId, id, range), `cases of ${id}`).toEqual(model.staffCases(known, id, range));
    expect(await record.shiftTotals(guildId, id, range), `shifts of ${id}`).toEqual(
      model.shiftTotals(known, id, range),
    );
    const { claimed, resolved, toClaimMs, toResolveMs } = await record.memberModcalls(guildId, id, range);
    expect({ claimed, resolved, toClaimMs, toResolveMs }, `modcalls of ${id}`).toEqual(
      model.memberModcalls(known, id, range),
    );
  }
  for (const { robloxId } of PLAYERS) {
    expect(await record.caseTotals(guildId, robloxId), `case totals of ${robloxId}`).toEqual(
      model.caseTotals(known, robloxId),
    );
  }
}

describeOnEngines('the community record, whatever the order and repetition of its deliveries', (engine) => {
  it('answers every figure as the model of the events told so far', async () => {
    await assertProperty(
      fc.asyncProperty(communityAndSchedule, async ({ community, steps, range, timeZone }) => {
        const store = engine.store();
        const guildId = engine.nextGuild();
        await playCommunity(store, guildId, community, steps, (seen) =>
          compareFigures(store, guildId, model.knownOf(community, seen), range, timeZone),
        );
      }),
      RUNS[engine.name as keyof typeof RUNS],
    );
  });
});
