import {
  EARLIER_CASES_SHOWN,
  EVIDENCE_MODCALL_SPAN_MS,
  EVIDENCE_MODCALLS_SHOWN,
  EVIDENCE_SESSION_LOOKBACK_MS,
  EVIDENCE_SHIFTS_SHOWN,
  type CaseEvidence,
  type EvidenceCase,
  type EvidenceLookup,
  type EvidenceShift,
} from '../../../../src/features/record/store/case-evidence.js';
import type { ShiftFact } from '../../../properties/community-events.js';
import { caseCounts, compareText, type Known, type KnownCase } from '../../../properties/record-model.js';

/*
 * The plain model of /case evidence: the join of what the bot was told (record-model.ts's Known), by the case's
 * moment and game server, with no SQL. A case known only from its case.voided has that moment as its own (the record
 * has no other yet) and tells no moderator.
 */

/** A shift is believed on for 16 h at most (the duty board's never ended; session-statements.ts's lookback). */
const SHIFT_BELIEVED_MS = 16 * 60 * 60 * 1000;

/** A known case as the record holds it: all of it once its case.created came, else what its case.voided says. */
function caseOf(found: KnownCase, created: boolean): EvidenceCase {
  const shown: EvidenceCase = {
    server: found.server,
    number: found.number,
    at: created ? found.createdAt : (found.voided?.at ?? found.createdAt),
    type: found.type,
    targetId: found.target.robloxId,
    targetName: found.target.name,
    reason: `reason ${found.number}`,
  };
  if (created) {
    shown.moderatorId = found.moderator.id;
    shown.moderatorName = found.moderator.name;
    shown.createdAt = found.createdAt;
  }
  if (found.isVoided && found.voided) {
    shown.voidedAt = found.voided.at;
    shown.voidedBy = found.voided.by;
  }
  return shown;
}

/** Every case the record holds, as it holds it. */
function casesOf(known: Known): EvidenceCase[] {
  return [
    ...known.cases.map((found) => caseOf(found, true)),
    ...known.voidedAlone.map((found) => caseOf(found, false)),
  ];
}

function shiftOf(shift: ShiftFact): EvidenceShift {
  return {
    server: shift.server,
    shiftId: shift.id,
    memberId: shift.member.id,
    memberName: shift.member.name,
    startedAt: shift.startedAt,
    endedAt: shift.endedAt,
  };
}

/** What /case evidence number: [server:] should answer from what the bot knows. */
export function evidenceOf(known: Known, number: number, server?: string): EvidenceLookup {
  const numbered = casesOf(known)
    .filter((found) => found.number === number && (server === undefined || found.server === server))
    .sort((a, b) => compareText(a.server, b.server));
  const [found] = numbered;
  if (!found) return { kind: 'none' };
  if (numbered.length > 1) return { kind: 'several', servers: numbered.map((each) => each.server) };
  return { kind: 'found', evidence: joinAround(known, found) };
}

function joinAround(known: Known, found: EvidenceCase): CaseEvidence {
  const moment = found.at;
  const inSpan = (at: number) => at >= moment - EVIDENCE_MODCALL_SPAN_MS && at <= moment;
  const cards = known.cards.flatMap((card) => {
    if (card.server !== found.server || card.callerId !== found.targetId) return [];
    const calls = card.calls.filter(inSpan);
    if (calls.length === 0) return [];
    return [
      {
        at: Math.min(...calls),
        calls: calls.length,
        callerName: card.callerName,
        claimedBy: card.claim?.by.id ?? null,
        claimedAt: card.claim?.at ?? null,
        resolvedBy: card.resolve?.by.id ?? null,
        resolvedAt: card.resolve?.at ?? null,
      },
    ];
  });
  cards.sort((a, b) => a.at - b.at);

  const byStart = (a: ShiftFact, b: ShiftFact) =>
    a.startedAt - b.startedAt || compareText(a.server, b.server) || a.id - b.id;
  const onShift = known.shifts
    .filter(
      (shift) =>
        shift.startedAt >= moment - SHIFT_BELIEVED_MS &&
        shift.startedAt <= moment &&
        (shift.endedAt === null || shift.endedAt >= moment),
    )
    .sort(byStart);
  const moderatorShifts =
    found.moderatorId === undefined
      ? []
      : known.shifts
          .filter((shift) => shift.member.id === found.moderatorId && shift.startedAt <= moment)
          .sort(byStart);
  const lastShift = moderatorShifts.at(-1);

  const session = known.sessions
    .filter(
      (each) =>
        each.server === found.server &&
        each.startedAt >= moment - EVIDENCE_SESSION_LOOKBACK_MS &&
        each.startedAt <= moment &&
        (each.endedAt === null || each.endedAt >= moment),
    )
    .sort((a, b) => b.startedAt - a.startedAt || b.id - a.id)[0];

  const earlier = casesOf(known)
    .filter((each) => each.targetId === found.targetId && each.at < moment)
    .sort((a, b) => b.at - a.at || b.number - a.number || compareText(b.server, a.server));
  const earlierKnown = [...known.cases, ...known.voidedAlone].filter(
    (each) =>
      each.target.robloxId === found.targetId &&
      !each.isVoided &&
      // A case the record holds is at its creation (a case.voided alone is voided, never counted here).
      each.createdAt < moment,
  );

  return {
    case: found,
    modcalls: cards.slice(0, EVIDENCE_MODCALLS_SHOWN),
    moreModcalls: cards.length > EVIDENCE_MODCALLS_SHOWN,
    onShift: onShift.slice(0, EVIDENCE_SHIFTS_SHOWN).map(shiftOf),
    moreOnShift: onShift.length > EVIDENCE_SHIFTS_SHOWN,
    moderatorLastShift: lastShift && shiftOf(lastShift),
    session: session && {
      sessionId: session.id,
      name: session.name,
      startedById: session.startedBy.id,
      startedByName: session.startedBy.name,
      startedAt: session.startedAt,
      endedAt: session.endedAt,
      peakPlayers: session.peakPlayers,
    },
    earlierCases: found.targetId === undefined ? [] : earlier.slice(0, EARLIER_CASES_SHOWN),
    earlierByType:
      found.targetId === undefined ? [] : caseCounts(earlierKnown).map(({ type, count }) => ({ type, count })),
  };
}
