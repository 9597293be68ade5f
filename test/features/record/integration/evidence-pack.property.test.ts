import fc from 'fast-check';
import { expect, it } from 'vitest';

import { REPEAT_CALL_WINDOW_MS } from '../../../../src/features/cards/feed-cards.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { Store } from '../../../../src/store/store.js';
import {
  communityArb,
  DAY,
  MINUTE,
  scheduleArb,
  SERVERS,
  STAFF,
  type CardFact,
  type Community,
  type Span,
} from '../../../properties/community-events.js';
import { assertProperty, describeOnEngines, playCommunity } from '../../../properties/play-community.js';
import { knownOf, type Known } from '../../../properties/record-model.js';
import { evidenceOf } from './evidence-model.js';

/*
 * /case evidence joins the record by time and game server, whatever order its deliveries came in: a community's
 * events delivered shuffled and repeated (a void before its case, a shift's end before its start, a late call), the
 * clicks on its modcall cards in between, the record writer's passes anywhere; at a few moments and at the end, the
 * pack of every case (by its number and server, and by its number alone) is the plain model's join
 * (evidence-model.ts) of what the bot was told so far.
 */

/** Two days: cases, calls, shifts and sessions close enough to meet in each other's windows. */
const SPAN: Span = { from: Date.UTC(2026, 2, 27), minutes: (2 * DAY) / MINUTE };

/** A modcall card of a case's player on its server, its first call up to 20 minutes before the case (or just after). */
const nearCallArb = fc.record({
  caseIndex: fc.nat(),
  minutesBefore: fc.integer({ min: -2, max: 20 }),
  gaps: fc.array(fc.integer({ min: 1, max: REPEAT_CALL_WINDOW_MS / MINUTE }), { maxLength: 3 }),
  claim: fc.option(fc.record({ by: fc.constantFrom(...STAFF), afterSeconds: fc.integer({ min: 0, max: 1800 }) })),
  resolve: fc.option(fc.record({ by: fc.constantFrom(...STAFF), afterSeconds: fc.integer({ min: 0, max: 1800 }) })),
});

type NearCall = typeof nearCallArb extends fc.Arbitrary<infer T> ? T : never;

/**
 * The community's own cards, and calls of the cases' players shortly before their cases (so that most packs have
 * calls, repeated ones among them, some at the window's edges); a card that would join another of its caller on its
 * server (within the repeat window) is left out, so every card is one the cards feature would have made.
 */
function withNearCalls(community: Community, near: ReadonlyArray<NearCall>): Community {
  const cards = [...community.cards];
  for (const { caseIndex, minutesBefore, gaps, claim, resolve } of near) {
    const found = community.cases[caseIndex % Math.max(1, community.cases.length)];
    if (!found) break;
    const calls = [found.createdAt - minutesBefore * MINUTE];
    for (const gap of gaps) calls.push((calls.at(-1) ?? 0) + gap * MINUTE);
    const last = calls.at(-1) ?? 0;
    const claimed = claim && { by: claim.by, at: last + claim.afterSeconds * 1000 };
    const resolved = resolve && { by: resolve.by, at: (claimed?.at ?? last) + resolve.afterSeconds * 1000 };
    const card: CardFact = { server: found.server, caller: found.target, calls, claim: claimed, resolve: resolved };
    const joins = cards.some(
      (other) =>
        other.server === card.server &&
        other.caller.robloxId === card.caller.robloxId &&
        (other.calls[0] ?? 0) - REPEAT_CALL_WINDOW_MS <= last &&
        (calls[0] ?? 0) - REPEAT_CALL_WINDOW_MS <= (other.calls.at(-1) ?? 0),
    );
    if (!joins) cards.push(card);
  }
  return { ...community, cards };
}

/** Few case numbers (some on both servers), many shifts, and calls around the cases. */
const communityAndSchedule = fc
  .tuple(communityArb(SPAN, { cases: 8, shifts: 10, sessions: 4, cards: 4 }), fc.array(nearCallArb, { maxLength: 8 }))
  .map(([community, near]) => withNearCalls(community, near))
  .chain((community) => fc.record({ community: fc.constant(community), steps: scheduleArb(community) }));

/** Runs per engine in `npm test`. */
const RUNS = { SQLite: 60, PostgreSQL: 15 } as const;

async function comparePacks(store: Store, guildId: string, known: Known, numbers: readonly number[]): Promise<void> {
  const record = store.of(recordModule);
  for (const number of numbers) {
    for (const server of [...SERVERS, undefined]) {
      expect(
        await record.caseEvidence(guildId, number, server),
        `case #${number} of ${server ?? 'any server'}`,
      ).toEqual(evidenceOf(known, number, server));
    }
  }
}

describeOnEngines('the evidence pack, whatever the order and repetition of its deliveries', (engine) => {
  it("joins each case's calls, shifts, session and earlier cases as the model of the events told so far", async () => {
    await assertProperty(
      fc.asyncProperty(communityAndSchedule, async ({ community, steps }) => {
        const store = engine.store();
        const guildId = engine.nextGuild();
        const numbers = [...new Set(community.cases.map((found) => found.number))];
        await playCommunity(store, guildId, community, steps, (seen) =>
          comparePacks(store, guildId, knownOf(community, seen), numbers),
        );
      }),
      RUNS[engine.name as keyof typeof RUNS],
    );
  });
});
