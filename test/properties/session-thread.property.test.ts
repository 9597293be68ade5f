import fc from 'fast-check';
import { expect, it } from 'vitest';

import { recordModule } from '../../src/features/record/store/record-module.js';
import type { SessionFacts } from '../../src/features/record/store/session-facts.js';
import {
  LOG_LINES_PER_MESSAGE,
  LOG_MESSAGES_AT_MOST,
  renderSessionLog,
} from '../../src/features/threads/session-log.js';
import { renderSessionReport } from '../../src/features/threads/session-report.js';
import { communityArb, DAY, MINUTE, scheduleArb, type Span } from './community-events.js';
import { assertProperty, describeOnEngines, playCommunity } from './play-community.js';
import { knownOf } from './record-model.js';
import { sessionLogLines, sessionReportFields } from './session-model.js';

/*
 * A session thread's log and after-action report (thread-keeper.ts draws them from the record's session facts) say
 * what the plain model says of the events told so far, whatever their order and repetition.
 */

/** Two days of one community: its sessions overlap its shifts, cases and modcalls. */
const SPAN: Span = { from: Date.UTC(2026, 10, 20), minutes: (2 * DAY) / MINUTE };
/** When the threads are drawn: a day after anything happened. */
const NOW = SPAN.from + SPAN.minutes * MINUTE + DAY;
/** What the thread keeper reads of a session (thread-keeper.ts). */
const READ_AT_MOST = LOG_LINES_PER_MESSAGE * LOG_MESSAGES_AT_MOST + 1;

const communityAndSchedule = communityArb(SPAN, { sessions: 5, shifts: 10, cases: 10, cards: 6 }).chain((community) =>
  fc.record({ community: fc.constant(community), steps: scheduleArb(community) }),
);

/** Runs per engine in `npm test`: each plays about 45 deliveries and draws every session's thread up to three times. */
const RUNS = { SQLite: 60, PostgreSQL: 12 } as const;

/** The log's lines as its messages show them, checked in time order, then sorted as the model's are. */
function logLinesOf(facts: SessionFacts): string[] {
  const lines = renderSessionLog(facts)
    .flatMap((part) => (part.embed.description ?? '').split('\n'))
    .filter((line) => line.startsWith('<t:'));
  const times = lines.map((line) => Number(/^<t:(\d+):T>/.exec(line)?.[1]));
  expect(times, 'the log in time order').toEqual([...times].sort((a, b) => a - b));
  return lines.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The report's fields by name, "Staff on shift" line by line (members on shift alike long may come in either order). */
function reportFieldsOf(facts: SessionFacts & { session: { endedAt: number } }): Record<string, string | string[]> {
  const fields = renderSessionReport(facts).fields ?? [];
  return Object.fromEntries(
    fields.map(({ name, value }) => [name, name === 'Staff on shift' ? value.split('\n').sort() : value]),
  );
}

describeOnEngines('session threads, whatever the order and repetition of deliveries', (engine) => {
  it("draw each session's log and after-action report as the model of what was told", async () => {
    await assertProperty(
      fc.asyncProperty(communityAndSchedule, async ({ community, steps }) => {
        const store = engine.store();
        const guildId = engine.nextGuild();
        await playCommunity(store, guildId, community, steps, async (seen) => {
          const known = knownOf(community, seen);
          for (const fact of community.sessions) {
            const facts = await store.of(recordModule).sessionFacts(guildId, fact.server, fact.id, NOW, READ_AT_MOST);
            const session = known.sessions.find((found) => found.server === fact.server && found.id === fact.id);
            // No thread reads a session whose start the record was not told.
            expect(facts === undefined, `session ${fact.server}:${fact.id} read`).toBe(session === undefined);
            if (!facts || !session) continue;
            expect(logLinesOf(facts), `log of ${fact.server}:${fact.id}`).toEqual(sessionLogLines(known, session, NOW));
            // As the thread keeper draws it: a report once the record has the session's end.
            const { endedAt } = facts.session;
            expect(endedAt, `end of ${fact.server}:${fact.id}`).toBe(session.endedAt);
            if (endedAt === null) continue;
            expect(reportFieldsOf({ ...facts, session: { ...facts.session, endedAt } }), 'report').toEqual(
              sessionReportFields(known, { ...session, endedAt }),
            );
          }
        });
      }),
      RUNS[engine.name as keyof typeof RUNS],
    );
  });
});
