import type { APIEmbed } from 'discord.js';

import { formatName } from '../../embeds/format.js';
import { describeTotals } from './case-lookup.js';
import type { CaseTypeCount } from './store/community-record.js';
import type { Board, ModcallResponse, ModcallTimes, ShiftTotals, Standing } from './store/record-queries.js';

/** Places a leaderboard shows. */
export const LEADERBOARD_SHOWN = 10;

/** The `p`th percentile (0 to 1) of sorted times, by nearest rank; undefined for none. */
export function percentile(sortedMs: readonly number[], p: number): number | undefined {
  if (sortedMs.length === 0) return undefined;
  return sortedMs[Math.min(sortedMs.length - 1, Math.max(0, Math.ceil(p * sortedMs.length) - 1))];
}

/** "45 s", "3 min 20 s", "2 h 5 min": a wait as staff read it. */
export function formatWait(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 === 0 ? `${minutes} min` : `${minutes} min ${seconds % 60} s`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
}

/** Seconds on shift as hours, one decimal: "12.5 h". */
export function formatHours(seconds: number): string {
  return `${(seconds / 3600).toFixed(1)} h`;
}

/**
 * "**5** calls on **3** cards · **2** claimed · **1** resolved · **1** never claimed": each call counts as a call,
 * and a card (however many calls it gathered) once as claimed, resolved or never claimed. "on … cards" is left
 * out when each call had a card of its own.
 */
export function describeModcallCounts(times: ModcallTimes): string {
  const cards = times.cards === times.calls ? '' : ` on **${times.cards}** ${times.cards === 1 ? 'card' : 'cards'}`;
  const neverClaimed = times.cards - times.claimed;
  const calls = times.calls === 1 ? 'call' : 'calls';
  return `**${times.calls}** ${calls}${cards} · **${times.claimed}** claimed · **${times.resolved}** resolved · **${neverClaimed}** never claimed`;
}

/** "median 1 min 20 s, p90 4 min", or "none yet". */
function describeWaits(sortedMs: readonly number[]): string {
  const median = percentile(sortedMs, 0.5);
  const p90 = percentile(sortedMs, 0.9);
  if (median === undefined || p90 === undefined) return 'none';
  return `median ${formatWait(median)}, p90 ${formatWait(p90)}`;
}

/** /staff stats: one member's cases, shifts and modcalls in a period. */
export function describeStaffStats(
  memberId: string,
  periodLabel: string,
  found: { cases: readonly CaseTypeCount[]; shifts: ShiftTotals; modcalls: ModcallTimes },
): APIEmbed {
  const { cases, shifts, modcalls } = found;
  const caseCount = cases.reduce((sum, row) => sum + row.count, 0);
  return {
    title: `Staff stats, ${periodLabel}`,
    description: `<@${memberId}>`,
    fields: [
      { name: `Cases (${caseCount})`, value: caseCount === 0 ? 'none' : describeTotals(cases) },
      {
        name: 'Shifts',
        value:
          shifts.count === 0
            ? 'none'
            : `${shifts.count} ${shifts.count === 1 ? 'shift' : 'shifts'}, ${formatHours(shifts.seconds)} on duty`,
      },
      {
        name: 'Modcalls',
        value:
          `claimed ${modcalls.claimed}, resolved ${modcalls.resolved}` +
          (modcalls.claimed > 0 ? `\ntime to claim: ${describeWaits(modcalls.toClaimMs)}` : ''),
      },
    ],
  };
}

const BOARD_TITLES: Record<Board, string> = {
  shifts: 'Hours on shift',
  cases: 'Cases made (voided ones not counted)',
  modcalls: 'Modcalls claimed',
};

function describeValue(board: Board, value: number): string {
  return board === 'shifts' ? formatHours(value) : String(value);
}

/**
 * /leaderboard: the top places (of `shown`, already filtered by role where asked) and the caller's own place in
 * the whole board.
 */
export function describeLeaderboard(
  board: Board,
  periodLabel: string,
  shown: readonly Standing[],
  caller: { memberId: string; standings: readonly Standing[] },
  roleId: string | null,
): APIEmbed {
  const title = `${BOARD_TITLES[board]}, ${periodLabel}`;
  if (shown.length === 0) {
    return { title, description: roleId ? `Nobody with <@&${roleId}> has any yet.` : 'Nobody has any yet.' };
  }
  const lines = shown.map((standing, i) => {
    const name = standing.name !== null ? ` (${formatName(standing.name, 40)})` : '';
    return `**${i + 1}.** <@${standing.memberId}>${name}: ${describeValue(board, standing.value)}`;
  });
  const place = caller.standings.findIndex((standing) => standing.memberId === caller.memberId);
  const own = caller.standings[place];
  lines.push(
    '',
    own
      ? `You: #${place + 1} of ${caller.standings.length}${roleId ? ' (everyone)' : ''}, ${describeValue(board, own.value)}`
      : 'You have none in this period.',
  );
  return { title, description: lines.join('\n'), ...(roleId ? { footer: { text: 'Members of the role only' } } : {}) };
}

/** /staff response: how the guild answered its modcalls in a period, and each member's claims (cards claimed). */
export function describeModcallResponse(periodLabel: string, response: ModcallResponse): APIEmbed {
  if (response.calls === 0) return { title: `Modcall response, ${periodLabel}`, description: 'No modcalls.' };
  const lines = [
    describeModcallCounts(response),
    `Time to claim: ${describeWaits(response.toClaimMs)}`,
    `Time to resolve: ${describeWaits(response.toResolveMs)}`,
  ];
  if (response.byMember.length > 0) lines.push('', '**Who claimed them**');
  for (const member of response.byMember.slice(0, LEADERBOARD_SHOWN)) {
    lines.push(`<@${member.memberId}>: ${member.claimed} · ${describeWaits(member.toClaimMs)}`);
  }
  return { title: `Modcall response, ${periodLabel}`, description: lines.join('\n') };
}
