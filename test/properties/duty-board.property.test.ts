import fc from 'fast-check';
import { expect, it } from 'vitest';

import { renderBoard } from '../../src/features/duty/board-render.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { communityArb, HOUR, MINUTE, scheduleArb, type Span } from './community-events.js';
import { dutyBoard, type BoardLine } from './duty-model.js';
import { assertProperty, describeOnEngines, playCommunity } from './play-community.js';
import { knownOf } from './record-model.js';

/*
 * The on-duty board (renderBoard over the record's open shifts, as board-updater.ts draws it) lists whom the plain
 * model has on duty, whatever the order and repetition of the shift deliveries: a shift.ended before its
 * shift.started, a retry, a resend.
 */

/** A day and a half of shifts: at the board's moment, some began minutes ago and some over 16 h ago. */
const SPAN: Span = { from: Date.UTC(2026, 10, 20, 6), minutes: (36 * HOUR) / MINUTE };

const communityAndSchedule = communityArb(SPAN, { cases: 0, sessions: 0, cards: 0, shifts: 12 }).chain((community) =>
  fc.record({
    community: fc.constant(community),
    steps: scheduleArb(community, 3),
    // When the board is drawn: after every shift began, up to 10 h after the last could have.
    now: fc.integer({ min: 0, max: 10 * 60 }).map((minute) => SPAN.from + (SPAN.minutes + minute) * MINUTE),
  }),
);

/** Runs per engine in `npm test`: each plays about 25 deliveries and draws the board up to four times. */
const RUNS = { SQLite: 100, PostgreSQL: 20 } as const;

/** Who a part of the board lists, and since when, in the order shown. */
function linesOf(text: string | undefined): BoardLine[] {
  return [...(text ?? '').matchAll(/<@(\d+)>[^\n]* since <t:(\d+):t>/g)].map(([, memberId, seconds]) => ({
    memberId: memberId ?? '',
    since: Number(seconds) * 1000,
  }));
}

/** The lines as a set (members who began at the same moment may come in either order), checked longest first. */
function asShown(lines: BoardLine[]): BoardLine[] {
  expect(lines.map((line) => line.since)).toEqual(lines.map((line) => line.since).sort((a, b) => a - b));
  return [...lines].sort((a, b) => a.since - b.since || (a.memberId < b.memberId ? -1 : 1));
}

describeOnEngines('the on-duty board, whatever the order and repetition of shift deliveries', (engine) => {
  it('lists the members the model has on duty, and apart those whose shift never ended', async () => {
    await assertProperty(
      fc.asyncProperty(communityAndSchedule, async ({ community, steps, now }) => {
        const store = engine.store();
        const guildId = engine.nextGuild();
        await playCommunity(store, guildId, community, steps, async (seen) => {
          const expected = dutyBoard(knownOf(community, seen), now);
          const [embed] = renderBoard(await store.of(recordModule).openShifts(guildId), now).embeds ?? [];
          expect(embed?.title).toBe(`On duty now: ${expected.onDuty.length}`);
          expect(asShown(linesOf(embed?.description)), 'on duty').toEqual(expected.onDuty);
          expect(asShown(linesOf(embed?.fields?.[0]?.value)), 'never ended').toEqual(expected.neverEnded);
        });
      }),
      RUNS[engine.name as keyof typeof RUNS],
    );
  });
});
