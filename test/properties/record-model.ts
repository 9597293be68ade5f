import type { CaseTypeCount } from '../../src/features/record/store/community-record.js';
import type {
  Board,
  GuildDay,
  ModcallResponse,
  ModcallTimes,
  OpenShift,
  RunningSession,
  SessionTotals,
  ShiftTotals,
  Standing,
  TimeRange,
} from '../../src/features/record/store/record-queries.js';
import {
  callTells,
  tellsOf,
  type CardFact,
  type CaseFact,
  type Community,
  type SessionFact,
  type ShiftFact,
} from './community-events.js';

/*
 * The plain model of the community record: what each figure should be, computed from the events the bot has been
 * told so far, with no SQL and no merging. A thing is known from the deliveries that came, whatever their order or
 * how often: a case once its case.created came (a void alone is no case yet), a shift from either of its events
 * (shift.ended tells its start too), a session once its session.started came (its end alone says not when it
 * began), a call from its modcall. A card's claim and resolution come from the clicks; a card is known from the calls
 * of it that came (one card however many, as its calls are added to it).
 */

/** What the bot has been told: the deliveries' `tells` and the clicks (`claim#n`, `resolve#n`). */
export type Seen = ReadonlySet<string>;

export interface KnownCase extends CaseFact {
  isVoided: boolean;
}
export interface KnownCall {
  server: string;
  callerId: string;
  callerName: string;
  at: number;
  card: number;
}
/**
 * A card of which a call came: its first call's time (the earliest that came: what its claim and resolution are timed
 * from, and the period it counts in), its calls that came, and what was clicked.
 */
export interface KnownCard {
  /** Which card of the community it is. */
  card: number;
  server: string;
  callerId: string;
  callerName: string;
  firstCall: number;
  calls: number[];
  claim: CardFact['claim'];
  resolve: CardFact['resolve'];
}
export interface Known {
  cases: KnownCase[];
  /**
   * The cases only a case.voided told of so far: in no figure, but a lookup of the player lists them (the void names
   * the case, its type and player) and counts them, voided.
   */
  voidedAlone: KnownCase[];
  /** endedAt null while its end was not told. */
  shifts: ShiftFact[];
  /** Only those whose start was told; endedAt null while the end was not. */
  sessions: SessionFact[];
  calls: KnownCall[];
  /** The cards of which a call came, by their place among the community's cards. */
  cards: KnownCard[];
}

export function claimClick(card: number): string {
  return `claim#${card}`;
}
export function resolveClick(card: number): string {
  return `resolve#${card}`;
}

/** What the record should hold after `seen`. */
export function knownOf(community: Community, seen: Seen): Known {
  const cases = community.cases.flatMap((found, index) =>
    seen.has(tellsOf('case.created', index))
      ? [{ ...found, isVoided: found.voided !== null && seen.has(tellsOf('case.voided', index)) }]
      : [],
  );
  const voidedAlone = community.cases.flatMap((found, index) =>
    !seen.has(tellsOf('case.created', index)) && seen.has(tellsOf('case.voided', index))
      ? [{ ...found, isVoided: true }]
      : [],
  );
  const shifts = community.shifts.flatMap((found, index) => {
    const ended = seen.has(tellsOf('shift.ended', index));
    if (!ended && !seen.has(tellsOf('shift.started', index))) return [];
    return [{ ...found, endedAt: ended ? found.endedAt : null }];
  });
  const sessions = community.sessions.flatMap((found, index) =>
    seen.has(tellsOf('session.started', index))
      ? [{ ...found, endedAt: seen.has(tellsOf('session.ended', index)) ? found.endedAt : null }]
      : [],
  );
  const calls = community.cards.flatMap((card, index) =>
    card.calls.flatMap((at, call) =>
      seen.has(callTells(index, call))
        ? [{ server: card.server, callerId: card.caller.robloxId, callerName: card.caller.name, at, card: index }]
        : [],
    ),
  );
  const cards = community.cards.flatMap((card, index) => {
    const came = calls.filter((call) => call.card === index).map((call) => call.at);
    if (came.length === 0) return [];
    return [
      {
        card: index,
        server: card.server,
        callerId: card.caller.robloxId,
        callerName: card.caller.name,
        firstCall: Math.min(...came),
        calls: came,
        claim: seen.has(claimClick(index)) ? card.claim : null,
        resolve: seen.has(resolveClick(index)) ? card.resolve : null,
      },
    ];
  });
  return { cases, voidedAlone, shifts, sessions, calls, cards };
}

export function inRange(at: number, range: TimeRange): boolean {
  return at >= range.from && at < range.to;
}

/** Seconds of a shift: its length once it ended, 0 while it runs (the service's `seconds` say so at its end). */
export function secondsOf(shift: ShiftFact): number {
  return shift.endedAt === null ? 0 : (shift.endedAt - shift.startedAt) / 1000;
}

/** Most first, then by id: how every ranking of the record is ordered. */
function byValueThenId<T extends { value: number; memberId: string }>(a: T, b: T): number {
  return b.value - a.value || compareText(a.memberId, b.memberId);
}

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function countBy<T>(items: readonly T[], keyOf: (item: T) => string, valueOf: (item: T) => number) {
  const totals = new Map<string, number>();
  for (const item of items) totals.set(keyOf(item), (totals.get(keyOf(item)) ?? 0) + valueOf(item));
  return totals;
}

/**
 * /leaderboard and the digest's rankings: seconds on shift of the shifts begun in the range (a running shift counts
 * 0 s, and a shift counts wholly in the period it began); cases made in it and not voided; modcall cards claimed
 * (one per card, however many calls it gathered), counted in the period of the card's first call.
 */
export function leaderboard(known: Known, board: Board, range: TimeRange): Standing[] {
  const standings = (totals: Map<string, number>, nameOf: (memberId: string) => string | null) =>
    [...totals].map(([memberId, value]) => ({ memberId, name: nameOf(memberId), value })).sort(byValueThenId);
  const staffName = (memberId: string) =>
    [...known.shifts, ...known.cases.map((found) => ({ member: found.moderator }))].find(
      (found) => found.member.id === memberId,
    )?.member.name ?? null;
  switch (board) {
    case 'shifts': {
      const shifts = known.shifts.filter((shift) => inRange(shift.startedAt, range));
      return standings(
        countBy(shifts, (shift) => shift.member.id, secondsOf),
        staffName,
      );
    }
    case 'cases': {
      const cases = known.cases.filter((found) => inRange(found.createdAt, range) && !found.isVoided);
      return standings(
        countBy(
          cases,
          (found) => found.moderator.id,
          () => 1,
        ),
        staffName,
      );
    }
    case 'modcalls': {
      const claims = known.cards.flatMap((card) =>
        card.claim && inRange(card.firstCall, range) ? [card.claim.by.id] : [],
      );
      return standings(
        countBy(
          claims,
          (memberId) => memberId,
          () => 1,
        ),
        () => null,
      );
    }
  }
}

/** Cases per type (most first, then by type), voided ones counted too and apart. */
export function caseCounts(cases: readonly KnownCase[]): CaseTypeCount[] {
  const counts = new Map<string, CaseTypeCount>();
  for (const found of cases) {
    const count = counts.get(found.type) ?? { type: found.type, count: 0, voided: 0 };
    count.count += 1;
    if (found.isVoided) count.voided += 1;
    counts.set(found.type, count);
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || compareText(a.type, b.type));
}

/** The guild's cases made in the range (the digest's Cases). */
export function guildCases(known: Known, range: TimeRange): CaseTypeCount[] {
  return caseCounts(known.cases.filter((found) => inRange(found.createdAt, range)));
}

/** /staff stats: the cases a member made in the range. */
export function staffCases(known: Known, memberId: string, range: TimeRange): CaseTypeCount[] {
  return caseCounts(known.cases.filter((found) => found.moderator.id === memberId && inRange(found.createdAt, range)));
}

/**
 * /case lookup's totals: a player's cases, all time, as its list shows them: those a case.voided alone told of too
 * (voided; no period or moderator is asked, and its case.created later changes no count).
 */
export function caseTotals(known: Known, playerId: string): CaseTypeCount[] {
  return caseCounts([...known.cases, ...known.voidedAlone].filter((found) => found.target.robloxId === playerId));
}

/** /staff stats: a member's shifts begun in the range (running ones too) and their seconds. */
export function shiftTotals(known: Known, memberId: string, range: TimeRange): ShiftTotals {
  const shifts = known.shifts.filter((shift) => shift.member.id === memberId && inRange(shift.startedAt, range));
  return { count: shifts.length, seconds: shifts.reduce((sum, shift) => sum + secondsOf(shift), 0) };
}

function sortedTimes(times: readonly number[]): number[] {
  return times.map((time) => Math.max(0, time)).sort((a, b) => a - b);
}

/**
 * /staff response and the digest's Modcalls: every call in the range counts as a call; each card whose first call
 * is in the range counts once when claimed (one time to claim, from its first call) and once when resolved.
 */
export function modcallResponse(known: Known, range: TimeRange): ModcallResponse {
  const calls = known.calls.filter((call) => inRange(call.at, range)).length;
  const cards = known.cards.filter((card) => inRange(card.firstCall, range));
  const claimed = cards.flatMap((card) =>
    card.claim ? [{ by: card.claim.by.id, ms: card.claim.at - card.firstCall }] : [],
  );
  const resolved = cards.flatMap((card) => (card.resolve ? [card.resolve.at - card.firstCall] : []));
  const members = [...new Set(claimed.map((claim) => claim.by))];
  const byMember = members
    .map((memberId) => {
      const times = claimed.filter((claim) => claim.by === memberId).map((claim) => claim.ms);
      return { memberId, claimed: times.length, toClaimMs: sortedTimes(times) };
    })
    .sort((a, b) => b.claimed - a.claimed || compareText(a.memberId, b.memberId));
  return {
    calls,
    cards: cards.length,
    claimed: claimed.length,
    resolved: resolved.length,
    toClaimMs: sortedTimes(claimed.map((claim) => claim.ms)),
    toResolveMs: sortedTimes(resolved),
    byMember,
  };
}

/** /staff stats: the cards of the range a member claimed and resolved, and their times (what the answer shows). */
export function memberModcalls(
  known: Known,
  memberId: string,
  range: TimeRange,
): Pick<ModcallTimes, 'claimed' | 'resolved' | 'toClaimMs' | 'toResolveMs'> {
  const cards = known.cards.filter((card) => inRange(card.firstCall, range));
  const claims = cards.flatMap((card) => (card.claim?.by.id === memberId ? [card.claim.at - card.firstCall] : []));
  const resolutions = cards.flatMap((card) =>
    card.resolve?.by.id === memberId ? [card.resolve.at - card.firstCall] : [],
  );
  return {
    claimed: claims.length,
    resolved: resolutions.length,
    toClaimMs: sortedTimes(claims),
    toResolveMs: sortedTimes(resolutions),
  };
}

/** The digest's Sessions: the sessions begun in the range, the time the ended ones ran, the most players. */
export function sessionTotals(known: Known, range: TimeRange): SessionTotals {
  const sessions = known.sessions.filter((session) => inRange(session.startedAt, range));
  const ms = sessions.reduce(
    (sum, session) => sum + (session.endedAt === null ? 0 : session.endedAt - session.startedAt),
    0,
  );
  const peaks = sessions.map((session) => session.peakPlayers);
  return {
    sessions: sessions.length,
    seconds: Math.floor(ms / 1000),
    peakPlayers: peaks.length === 0 ? null : Math.max(...peaks),
  };
}

/** The date the wall clock of `timeZone` shows at `ms`, as that date's midnight in UTC. */
export function zoneDate(ms: number, timeZone: string): number {
  const [year, month, day] = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  })
    .format(ms)
    .split('-')
    .map(Number);
  return Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1);
}

/**
 * The digest's Per day: each date of the zone with anything begun on it in the range (a shift, a case, voided or
 * not, a call), its seconds on shift (shifts counted on the day they began), cases and calls; by date.
 */
export function guildDays(known: Known, range: TimeRange, timeZone: string): GuildDay[] {
  const days = new Map<number, GuildDay>();
  const dayOf = (at: number) => {
    const date = zoneDate(at, timeZone);
    const day = days.get(date) ?? { day: date, shiftSeconds: 0, cases: 0, modcalls: 0 };
    days.set(date, day);
    return day;
  };
  for (const shift of known.shifts)
    if (inRange(shift.startedAt, range)) dayOf(shift.startedAt).shiftSeconds += secondsOf(shift);
  for (const found of known.cases) if (inRange(found.createdAt, range)) dayOf(found.createdAt).cases += 1;
  for (const call of known.calls) if (inRange(call.at, range)) dayOf(call.at).modcalls += 1;
  return [...days.values()].sort((a, b) => a.day - b.day);
}

/** The shifts begun and not (yet told) ended, oldest first, then by server and id: the duty board's input. */
export function openShifts(known: Known): OpenShift[] {
  return known.shifts
    .filter((shift) => shift.endedAt === null)
    .map((shift) => ({
      server: shift.server,
      shiftId: shift.id,
      memberId: shift.member.id,
      memberName: shift.member.name,
      startedAt: shift.startedAt,
    }))
    .sort((a, b) => a.startedAt - b.startedAt || compareText(a.server, b.server) || a.shiftId - b.shiftId);
}

/** The sessions begun and not (yet told) ended, oldest first, then by server and id. */
export function runningSessions(known: Known): RunningSession[] {
  return known.sessions
    .filter((session) => session.endedAt === null)
    .map((session) => ({
      server: session.server,
      sessionId: session.id,
      name: session.name,
      startedAt: session.startedAt,
    }))
    .sort((a, b) => a.startedAt - b.startedAt || compareText(a.server, b.server) || a.sessionId - b.sessionId);
}
