import { formatCaseType } from '../../src/embeds/case-type.js';
import { formatName } from '../../src/embeds/format.js';
import { formatDuration } from '../../src/embeds/time.js';
import { describeCaseCounts, formatWait, percentile } from '../../src/features/record/index.js';
import type { SessionFact } from './community-events.js';
import { compareText, type Known } from './record-model.js';

/*
 * The plain model of a session thread: its log and its after-action report, from the events the bot was told. What a
 * session spans: from its start to its end, the end's moment included (while it runs, up to now). The wording is the
 * threads' (the same formatters); what each line and field says is computed here.
 */

/** A shift begun longer than this before a session is not read for it (session-statements.ts's documented bound). */
const SHIFT_LOOKBACK_MS = 16 * 60 * 60 * 1000;

/** The moments a session spans: [from, to). */
function spanOf(session: SessionFact, now: number): { from: number; to: number } {
  return { from: session.startedAt, to: session.endedAt === null ? now : session.endedAt + 1 };
}

function within(at: number, span: { from: number; to: number }): boolean {
  return at >= span.from && at < span.to;
}

/** The shifts a session's thread reads: on its server, begun up to 16 h before it and before its end, not ended before it. */
function shiftsOf(known: Known, session: SessionFact, now: number) {
  const { from, to } = spanOf(session, now);
  return known.shifts.filter(
    (shift) =>
      shift.server === session.server &&
      shift.startedAt >= from - SHIFT_LOOKBACK_MS &&
      shift.startedAt < to &&
      (shift.endedAt === null || shift.endedAt >= from),
  );
}

/** The modcall cards of a session: those with a call on its server within it, and those calls' times. */
function cardsOf(known: Known, session: SessionFact, span: { from: number; to: number }) {
  return known.cards.flatMap((card) => {
    const calls = card.server === session.server ? card.calls.filter((at) => within(at, span)) : [];
    return calls.length === 0 ? [] : [{ ...card, within: calls }];
  });
}

/** The session's log, line by line (in no particular order): its cases, its modcall cards and how each was answered, shifts. */
export function sessionLogLines(known: Known, session: SessionFact, now: number): string[] {
  const span = spanOf(session, now);
  const end = session.endedAt ?? Infinity;
  const stamp = (at: number) => `<t:${Math.floor(at / 1000)}:T> `;
  const lines: string[] = [];
  for (const found of known.cases) {
    if (found.server !== session.server || !within(found.createdAt, span)) continue;
    const text = `**${formatCaseType(found.type)}** #${found.number} · ${formatName(found.target.name, 40)} by ${formatName(found.moderator.name, 40)}`;
    lines.push(stamp(found.createdAt) + (found.isVoided ? `~~${text}~~ (voided)` : text));
  }
  // A card a line, at its first call within the session, with its calls within it counted; its claim once, timed
  // from its first call (before the session when the card was).
  for (const card of cardsOf(known, session, span)) {
    const calls = card.within.length > 1 ? ` (${card.within.length} calls)` : '';
    const { claim } = card;
    const answer = claim
      ? `claimed by <@${claim.by.id}> after ${formatWait(claim.at - card.firstCall)}`
      : 'not claimed';
    lines.push(
      `${stamp(Math.min(...card.within))}📣 Modcall from ${formatName(card.callerName, 40)}${calls} · ${answer}`,
    );
  }
  for (const shift of shiftsOf(known, session, now)) {
    const who = `<@${shift.member.id}>`;
    if (shift.startedAt >= session.startedAt && shift.startedAt <= end)
      lines.push(`${stamp(shift.startedAt)}🟢 ${who} on shift`);
    if (shift.endedAt !== null && shift.endedAt >= session.startedAt && shift.endedAt <= end) {
      lines.push(`${stamp(shift.endedAt)}⚪ ${who} off shift`);
    }
  }
  return lines.sort(compareText);
}

/** The after-action report's fields of an ended session, by name; "Staff on shift" line by line, in no order. */
export function sessionReportFields(
  known: Known,
  session: SessionFact & { endedAt: number },
): Record<string, string | string[]> {
  const span = spanOf(session, session.endedAt);
  const counts = new Map<string, number>();
  for (const found of known.cases) {
    if (found.server !== session.server || !within(found.createdAt, span) || found.isVoided) continue;
    counts.set(found.type, (counts.get(found.type) ?? 0) + 1);
  }
  const cases = [...counts]
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
  // A card is answered once when claimed, however many calls it gathered; its time to claim is from its first call.
  const cards = cardsOf(known, session, span);
  const calls = cards.reduce((sum, card) => sum + card.within.length, 0);
  const waits = cards.flatMap((card) => (card.claim ? [card.claim.at - card.firstCall] : [])).sort((a, b) => a - b);
  const median = percentile(waits, 0.5);
  const modcalls =
    cards.length === 0
      ? 'None'
      : `${waits.length} of ${cards.length} answered` +
        (calls === cards.length ? '' : ` (${calls} calls)`) +
        (median === undefined ? '' : ` · median time to claim ${formatWait(median)}`);
  // Each member's time on shift within the session; a shift still open counts to its end.
  const staff = new Map<string, number>();
  for (const shift of shiftsOf(known, session, session.endedAt)) {
    const ms =
      Math.min(shift.endedAt ?? session.endedAt, session.endedAt) - Math.max(shift.startedAt, session.startedAt);
    if (ms > 0) staff.set(shift.member.id, (staff.get(shift.member.id) ?? 0) + ms);
  }
  const staffLines = [...staff]
    .map(([memberId, ms]) => `<@${memberId}>: ${formatDuration(ms / 1000)}`)
    .sort(compareText);
  return {
    Duration: formatDuration((session.endedAt - session.startedAt) / 1000),
    'Peak players': String(session.peakPlayers),
    Joins: String(session.joins),
    Cases: cases.length === 0 ? 'None' : describeCaseCounts(cases, ' · '),
    Modcalls: modcalls,
    'Staff on shift': staffLines.length === 0 ? ['Nobody'] : staffLines,
  };
}
