import type { APIEmbed } from 'discord.js';

import { fitLines } from '../../base/truncate-text.js';
import { COLOURS } from '../../embeds/colours.js';
import { formatName } from '../../embeds/format.js';
import { formatDuration } from '../../embeds/time.js';
import { describeCaseCounts, formatWait, percentile, type SessionFacts, type SessionShift } from '../record/index.js';
import { sessionFooter } from './session-log.js';

/** A field's value holds at most 1024 characters (Discord's limit). */
const FIELD_MAX = 1024;

/**
 * The after-action report of an ended session: how long it ran, its peak players and joins, its cases by type,
 * its modcall cards answered (a card of repeated calls once) and the median time to claim, and the staff on shift
 * with their minutes within it.
 */
export function renderSessionReport(facts: SessionFacts & { session: { endedAt: number } }): APIEmbed {
  const { session } = facts;
  const cases = casesByType(facts);
  // A card is answered once, however many calls it gathered: the wait counts from its first call.
  const claimWaits = facts.modcalls
    .filter((card) => card.claimedAt !== null)
    .map((card) => (card.claimedAt ?? card.calledAt) - card.calledAt)
    .sort((a, b) => a - b);
  const median = percentile(claimWaits, 0.5);
  const calls = facts.modcalls.reduce((sum, card) => sum + card.calls, 0);
  const modcalls =
    facts.modcalls.length === 0
      ? 'None'
      : `${claimWaits.length} of ${facts.modcalls.length} answered` +
        (calls === facts.modcalls.length ? '' : ` (${calls} calls)`) +
        (median === undefined ? '' : ` · median time to claim ${formatWait(median)}`);
  return {
    title: `After-action report: ${formatName(session.name ?? `session ${session.sessionId}`, 200)}`,
    description: `<t:${Math.floor(session.startedAt / 1000)}:f> to <t:${Math.floor(session.endedAt / 1000)}:t>`,
    color: COLOURS.sessionEnded,
    fields: [
      { name: 'Duration', value: formatDuration((session.endedAt - session.startedAt) / 1000), inline: true },
      {
        name: 'Peak players',
        value: session.peakPlayers === null ? 'Not told' : String(session.peakPlayers),
        inline: true,
      },
      { name: 'Joins', value: session.joins === null ? 'Not told' : String(session.joins), inline: true },
      { name: 'Cases', value: cases.length === 0 ? 'None' : describeCaseCounts(cases, ' · ') },
      { name: 'Modcalls', value: modcalls },
      { name: 'Staff on shift', value: describeStaff(facts.shifts, session.startedAt, session.endedAt) },
    ],
    footer: { text: sessionFooter(facts) },
  };
}

/** Cases not voided, per type, most first. */
function casesByType(facts: SessionFacts): Array<{ type: string; count: number }> {
  const counts = new Map<string, number>();
  for (const found of facts.cases) {
    if (found.voided) continue;
    const type = found.type ?? 'unknown';
    counts.set(type, (counts.get(type) ?? 0) + 1);
  }
  return [...counts]
    .map(([type, count]) => ({ type, count }))
    .sort((a, b) => b.count - a.count || a.type.localeCompare(b.type));
}

/** Each member's minutes on shift within the session (a shift still open counts to the session's end), most first. */
function describeStaff(shifts: readonly SessionShift[], from: number, to: number): string {
  const minutes = new Map<string, { who: string; ms: number }>();
  for (const shift of shifts) {
    const overlap = Math.min(shift.endedAt ?? to, to) - Math.max(shift.startedAt, from);
    if (overlap <= 0) continue;
    const key = shift.memberId ?? `name:${shift.memberName ?? '?'}`;
    const who = shift.memberId === null ? formatName(shift.memberName ?? 'someone', 40) : `<@${shift.memberId}>`;
    const held = minutes.get(key) ?? { who, ms: 0 };
    minutes.set(key, { who, ms: held.ms + overlap });
  }
  const lines = [...minutes.values()]
    .sort((a, b) => b.ms - a.ms)
    .map(({ who, ms }) => `${who}: ${formatDuration(ms / 1000)}`);
  return lines.length === 0 ? 'Nobody' : fitLines(lines, FIELD_MAX);
}
