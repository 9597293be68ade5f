import fc from 'fast-check';

import { REPEAT_CALL_WINDOW_MS } from '../../src/features/cards/feed-cards.js';

/*
 * A community's events, generated: cases (some voided), shifts (some never ended), sessions (some still running),
 * modcall cards (a caller's repeated calls, claimed and resolved or not) on one or two game servers; and how they
 * reach the bot: the service's deliveries, each sent once or several times (a retry under the same delivery id, a
 * resend under a new one), in any order, with the moderators' clicks on the cards and the record writer's passes
 * in between.
 */

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** The staff of every generated community: their Discord ids and the names the service gives them. */
export const STAFF = [
  { id: '500000000000000001', name: 'Ann' },
  { id: '500000000000000002', name: 'Bo' },
  { id: '500000000000000003', name: 'Cy' },
  { id: '500000000000000004', name: 'Di' },
] as const;
export type Staff = (typeof STAFF)[number];

/** The players cases name and who call for a moderator. */
export const PLAYERS = [
  { robloxId: '9001', name: 'BuilderBob' },
  { robloxId: '9002', name: 'SpeedyRacer' },
  { robloxId: '9003', name: 'QuietQuinn' },
] as const;
export interface Player {
  robloxId: string;
  name: string;
}

export const SERVERS = ['4821337', '4821338'] as const;
const CASE_TYPES = ['warn', 'kick', 'ban'] as const;

export interface CaseFact {
  server: string;
  number: number;
  type: string;
  target: Player;
  moderator: Staff;
  createdAt: number;
  voided: { at: number; by: string } | null;
}

export interface ShiftFact {
  server: string;
  id: number;
  member: Staff;
  startedAt: number;
  /** null: its shift.ended is never sent (still on shift, or a shift that never ended). */
  endedAt: number | null;
}

export interface SessionFact {
  server: string;
  id: number;
  name: string;
  startedBy: Staff;
  startedAt: number;
  endedAt: number | null;
  peakPlayers: number;
  joins: number;
  cases: number;
}

/** A modcall card: one caller's calls, each within the repeat window of the one before, and what staff did. */
export interface CardFact {
  server: string;
  caller: Player;
  /** The calls' times, in order. */
  calls: number[];
  claim: { by: Staff; at: number } | null;
  resolve: { by: Staff; at: number } | null;
}

export interface Community {
  cases: CaseFact[];
  shifts: ShiftFact[];
  sessions: SessionFact[];
  cards: CardFact[];
}

/** Where a community's events fall: minutes from `from`, up to `minutes` of them. */
export interface Span {
  from: number;
  minutes: number;
}

/** A moment of the span, on the minute (so that events and period edges meet exactly now and then). */
function momentIn(span: Span): fc.Arbitrary<number> {
  return fc.integer({ min: 0, max: span.minutes }).map((minute) => span.from + minute * MINUTE);
}

const staffArb = fc.constantFrom(...STAFF);

function caseArb(span: Span): fc.Arbitrary<CaseFact> {
  return fc
    .record({
      server: fc.constantFrom(...SERVERS),
      number: fc.integer({ min: 1, max: 40 }),
      type: fc.constantFrom(...CASE_TYPES),
      target: fc.constantFrom(...PLAYERS),
      moderator: staffArb,
      createdAt: momentIn(span),
      voided: fc.option(fc.record({ afterMinutes: fc.integer({ min: 0, max: 180 }), by: fc.constantFrom('u1', 'u2') })),
    })
    .map(({ voided, ...found }) => ({
      ...found,
      voided: voided && { at: found.createdAt + voided.afterMinutes * MINUTE, by: voided.by },
    }));
}

function shiftArb(span: Span): fc.Arbitrary<ShiftFact> {
  return fc
    .record({
      server: fc.constantFrom(...SERVERS),
      id: fc.integer({ min: 1, max: 40 }),
      member: staffArb,
      startedAt: momentIn(span),
      // Mostly a few hours; now and then one open or lasting past the 16 h a shift is believed for.
      minutes: fc.oneof(
        { weight: 4, arbitrary: fc.integer({ min: 0, max: 12 * 60 }) },
        { weight: 1, arbitrary: fc.integer({ min: 15 * 60, max: 22 * 60 }) },
      ),
      ended: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
    })
    .map(({ minutes, ended, ...found }) => ({ ...found, endedAt: ended ? found.startedAt + minutes * MINUTE : null }));
}

function sessionArb(span: Span): fc.Arbitrary<SessionFact> {
  return fc
    .record({
      server: fc.constantFrom(...SERVERS),
      id: fc.integer({ min: 1, max: 12 }),
      startedBy: staffArb,
      startedAt: momentIn(span),
      minutes: fc.integer({ min: 1, max: 10 * 60 }),
      ended: fc.integer({ min: 0, max: 3 }).map((n) => n > 0),
      peakPlayers: fc.integer({ min: 0, max: 60 }),
      joins: fc.integer({ min: 0, max: 200 }),
      cases: fc.integer({ min: 0, max: 20 }),
    })
    .map(({ minutes, ended, ...found }) => ({
      ...found,
      name: `Session ${found.id}`,
      endedAt: ended ? found.startedAt + minutes * MINUTE : null,
    }));
}

function cardArb(span: Span): fc.Arbitrary<CardFact> {
  return fc
    .record({
      server: fc.constantFrom(...SERVERS),
      caller: fc.constantFrom(...PLAYERS),
      first: momentIn(span),
      // A repeat call within the window of the one before is counted on the same card (feed-cards.ts).
      gaps: fc.array(fc.integer({ min: 1, max: REPEAT_CALL_WINDOW_MS / MINUTE }), { maxLength: 3 }),
      claim: fc.option(fc.record({ by: staffArb, afterSeconds: fc.integer({ min: 0, max: 2 * 3600 }) })),
      resolve: fc.option(fc.record({ by: staffArb, afterSeconds: fc.integer({ min: 0, max: 3600 }) })),
    })
    .map(({ first, gaps, claim, resolve, ...card }) => {
      const calls = [first];
      for (const gap of gaps) calls.push((calls.at(-1) ?? first) + gap * MINUTE);
      const last = calls.at(-1) ?? first;
      // The claim comes after the card gathered its calls; Resolve after Claim (a claim after it is refused).
      const claimed = claim && { by: claim.by, at: last + claim.afterSeconds * 1000 };
      const resolved = resolve && { by: resolve.by, at: (claimed?.at ?? last) + resolve.afterSeconds * 1000 };
      return { ...card, calls, claim: claimed, resolve: resolved };
    });
}

/**
 * Cards of one caller on one server whose calls come within the repeat window of each other would be one card: such a
 * card gets a caller of its own, so every card is one the cards feature would have made.
 */
function separateCards(cards: readonly CardFact[]): CardFact[] {
  const kept: CardFact[] = [];
  for (const [index, card] of cards.entries()) {
    const overlaps = kept.some(
      (other) =>
        other.server === card.server &&
        other.caller.robloxId === card.caller.robloxId &&
        (other.calls[0] ?? 0) - REPEAT_CALL_WINDOW_MS <= (card.calls.at(-1) ?? 0) &&
        (card.calls[0] ?? 0) - REPEAT_CALL_WINDOW_MS <= (other.calls.at(-1) ?? 0),
    );
    kept.push(
      overlaps ? { ...card, caller: { robloxId: `${card.caller.robloxId}${index}`, name: card.caller.name } } : card,
    );
  }
  return kept;
}

/** A community's events within `span`; each thing named once on its server (the service's numbers and ids). */
export function communityArb(
  span: Span,
  size: { cases?: number; shifts?: number; sessions?: number; cards?: number } = {},
) {
  const key = (found: { server: string; number?: number; id?: number }) =>
    `${found.server}:${found.number ?? found.id}`;
  return fc
    .record({
      cases: fc.uniqueArray(caseArb(span), { selector: key, maxLength: size.cases ?? 10 }),
      shifts: fc.uniqueArray(shiftArb(span), { selector: key, maxLength: size.shifts ?? 8 }),
      sessions: fc.uniqueArray(sessionArb(span), { selector: key, maxLength: size.sessions ?? 4 }),
      cards: fc.array(cardArb(span), { maxLength: size.cards ?? 6 }),
    })
    .map((community): Community => ({ ...community, cards: separateCards(community.cards) }));
}

/** One delivery the service sends: what it tells (`tells`, the model's name for it) and its envelope's parts. */
export interface ServiceDelivery {
  tells: string;
  event: string;
  server: string;
  at: number;
  data: unknown;
}

/** The service's deliveries of a community's events, as upstream-api.md §6 shapes them. */
export function deliveriesOf(community: Community): ServiceDelivery[] {
  const deliveries: ServiceDelivery[] = [];
  for (const [index, found] of community.cases.entries()) {
    const { server, number, type, target, moderator, createdAt, voided } = found;
    const moderatorOf = { discordId: moderator.id, name: moderator.name };
    const reason = `reason ${number}`;
    deliveries.push({
      tells: tellsOf('case.created', index),
      event: 'case.created',
      server,
      at: createdAt,
      data: {
        case: {
          ...{ number, type, status: 'active', target, moderator: moderatorOf, reason, evidence: null, inGame: true },
          ...{ createdAt, voidedAt: null, voidedBy: null },
        },
      },
    });
    if (voided) {
      deliveries.push({
        tells: tellsOf('case.voided', index),
        event: 'case.voided',
        server,
        at: voided.at,
        data: { case: { number, type, status: 'voided', target, reason, voidedAt: voided.at, voidedBy: voided.by } },
      });
    }
  }
  for (const [index, found] of community.shifts.entries()) {
    const shift = {
      id: found.id,
      discordId: found.member.id,
      name: found.member.name,
      robloxId: `7${found.member.id.slice(-2)}`,
      startedAt: found.startedAt,
    };
    deliveries.push({
      tells: tellsOf('shift.started', index),
      event: 'shift.started',
      server: found.server,
      at: found.startedAt,
      data: { shift: { ...shift, endedAt: null, seconds: null } },
    });
    if (found.endedAt !== null) {
      const seconds = (found.endedAt - found.startedAt) / 1000;
      deliveries.push({
        tells: tellsOf('shift.ended', index),
        event: 'shift.ended',
        server: found.server,
        at: found.endedAt,
        data: { shift: { ...shift, endedAt: found.endedAt, seconds } },
      });
    }
  }
  for (const [index, found] of community.sessions.entries()) {
    const { server, id, name, startedBy, startedAt, endedAt, peakPlayers } = found;
    deliveries.push({
      tells: tellsOf('session.started', index),
      event: 'session.started',
      server,
      at: startedAt,
      data: {
        session: {
          ...{ id, name, message: 'Welcome', startedBy: { discordId: startedBy.id, name: startedBy.name } },
          ...{ startedAt, endedAt: null, endedBy: null, peakPlayers },
        },
      },
    });
    if (endedAt !== null) {
      deliveries.push({
        tells: tellsOf('session.ended', index),
        event: 'session.ended',
        server,
        at: endedAt,
        data: { session: { id, name, endedAt }, stats: { joins: found.joins, cases: found.cases } },
      });
    }
  }
  for (const [index, card] of community.cards.entries()) {
    for (const [call, at] of card.calls.entries()) {
      deliveries.push({
        tells: callTells(index, call),
        event: 'modcall',
        server: card.server,
        at,
        data: { caller: card.caller, at },
      });
    }
  }
  return deliveries;
}

/** The model's name for what one delivery tells: an event of the `index`th thing of its kind. */
export function tellsOf(event: string, index: number): string {
  return `${event}#${index}`;
}

/** The model's name for the `call`th call of the `card`th card. */
export function callTells(card: number, call: number): string {
  return `modcall#${card}.${call}`;
}

/** What happens next to the bot: a delivery comes in, a moderator clicks, the record's writer runs, or we look. */
export type Step =
  | { kind: 'deliver'; delivery: ServiceDelivery; deliveryId: string }
  | { kind: 'click'; card: number; action: 'claim' | 'resolve' }
  | { kind: 'record'; limit: number }
  | { kind: 'check' };

/** Sort keys of the schedule: comparable positions of every step. */
const POSITIONS = 1000;

/**
 * A schedule for the community's deliveries: each sent once or more (a retry under its delivery id, or a resend
 * under a new one), all in any order (so a void may come before its case, an end before its start); the clicks on
 * each card after its calls came in (Claim before Resolve); the writer's passes of a few deliveries at a time, and
 * up to `checks` moments (besides the end) at which the figures are compared.
 */
export function scheduleArb(community: Community, checks = 2): fc.Arbitrary<Step[]> {
  const deliveries = deliveriesOf(community);
  const position = fc.integer({ min: 0, max: POSITIONS });
  const copies = fc.array(fc.record({ resend: fc.boolean(), at: position }), { minLength: 1, maxLength: 3 });
  return fc
    .record({
      copies: fc.tuple(...deliveries.map(() => copies)),
      clicks: fc.tuple(...community.cards.map(() => fc.tuple(position, position))),
      passes: fc.array(fc.record({ at: position, limit: fc.integer({ min: 1, max: 4 }) }), { maxLength: 8 }),
      checks: fc.array(position, { maxLength: checks }),
    })
    .map(({ copies: copiesOf, clicks, passes, checks: looks }) => {
      const placed: Array<{ at: number; step: Step }> = [];
      const firstCopyAt = new Map<string, number>();
      for (const [index, delivery] of deliveries.entries()) {
        const sent = copiesOf[index] ?? [];
        for (const [copy, { resend, at }] of sent.entries()) {
          const deliveryId = copy > 0 && resend ? `${delivery.tells}/resent-${copy}` : delivery.tells;
          placed.push({ at, step: { kind: 'deliver', delivery, deliveryId } });
          firstCopyAt.set(delivery.tells, Math.min(at, firstCopyAt.get(delivery.tells) ?? Infinity));
        }
      }
      for (const [index, card] of community.cards.entries()) {
        const [claimAt, resolveAt] = clicks[index] ?? [0, 0];
        // A card is clicked once its calls are in (the feed posted them); half steps place it after them.
        let after = Math.max(...card.calls.map((_, call) => firstCopyAt.get(callTells(index, call)) ?? 0)) + 0.5;
        if (card.claim) {
          after += claimAt % (POSITIONS + 1 - Math.floor(after));
          placed.push({ at: after, step: { kind: 'click', card: index, action: 'claim' } });
          after += 0.25;
        }
        if (card.resolve) {
          after += resolveAt % (POSITIONS + 1 - Math.floor(after));
          placed.push({ at: after, step: { kind: 'click', card: index, action: 'resolve' } });
        }
      }
      for (const { at, limit } of passes) placed.push({ at, step: { kind: 'record', limit } });
      for (const at of looks) placed.push({ at, step: { kind: 'check' } });
      // A stable sort: steps at one position keep the order above.
      return placed.sort((a, b) => a.at - b.at).map(({ step }) => step);
    });
}
