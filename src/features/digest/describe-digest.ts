import type { APIEmbed } from 'discord.js';

import { fitLines } from '../../base/truncate-text.js';
import { describeActivityShort, type MemberActivity } from '../leave/index.js';
import {
  dayLabel,
  describeModcallCounts,
  describeTotals,
  formatHours,
  formatWait,
  LEADERBOARD_SHOWN,
  percentile,
  type CaseTypeCount,
  type GuildDay,
  type ModcallResponse,
  type SessionTotals,
  type Standing,
  type TimeRange,
} from '../record/index.js';
import type { QuotaResult } from './quota-report.js';

/** A field's value holds at most 1024 characters (Discord's limit). */
const FIELD_MAX = 1024;
const WEEKDAY_NAMES = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** What a week's digest says: read from the record for the guild and the week. */
export interface DigestFacts {
  week: TimeRange;
  timeZone: string;
  /** Posted this long after the week ended (0: on time). */
  lateMs: number;
  shifts: readonly Standing[];
  quotas: readonly QuotaResult[];
  cases: readonly CaseTypeCount[];
  moderators: readonly Standing[];
  modcalls: ModcallResponse;
  sessions: SessionTotals;
  days: readonly GuildDay[];
  /** The staff's activity of the week, its short version (/staff activity); absent: not shown. */
  activity?: readonly MemberActivity[];
}

/** Past this, a digest says it is late: the bot was not running (or not able to post) when it was due. */
export const LATE_AFTER_MS = 15 * 60 * 1000;

/** The name of the chart file the digest's embed shows. */
export const DIGEST_CHART = 'week.png';

/** "Mon 16 Nov" on the wall clock of the time zone. */
function localDay(ms: number, timeZone: string): string {
  return new Date(ms).toLocaleDateString('en-GB', { timeZone, weekday: 'short', day: 'numeric', month: 'short' });
}

/**
 * The footer that names a guild's digest of one week: with the title, what a retry compares to find a digest
 * already posted (find-post.ts), so it must differ from week to week.
 */
export function digestFooter(weekEnd: number): string {
  return `Weekly digest · week to ${new Date(weekEnd).toISOString().slice(0, 16)} UTC`;
}

/** The week's digest as one embed; the chart (when there is one) is its image. */
export function describeDigest(facts: DigestFacts, withChart: boolean): APIEmbed {
  const { week, timeZone } = facts;
  const end = Math.floor(week.to / 1000);
  const lines = [`The week to <t:${end}:f>.`];
  if (facts.lateMs > LATE_AFTER_MS) {
    lines.push(`Posted late: the bot could not post it when it was due (<t:${end}:R>).`);
  }
  return {
    title: `Weekly digest: ${localDay(week.from, timeZone)} – ${localDay(week.to, timeZone)}`,
    description: lines.join('\n'),
    fields: [
      { name: 'Hours on shift', value: describeShifts(facts.shifts) },
      ...(facts.quotas.length > 0 ? [{ name: 'Quotas', value: describeQuotas(facts.quotas) }] : []),
      { name: 'Cases', value: describeCases(facts.cases, facts.moderators) },
      { name: 'Modcalls', value: describeModcalls(facts.modcalls) },
      { name: 'Sessions', value: describeSessions(facts.sessions) },
      { name: `Per day (${timeZone})`, value: describeDays(facts.days) },
      ...(facts.activity
        ? [{ name: 'Activity', value: fitLines(describeActivityShort(facts.activity).split('\n'), FIELD_MAX) }]
        : []),
    ],
    ...(withChart ? { image: { url: `attachment://${DIGEST_CHART}` } } : {}),
    footer: { text: digestFooter(week.to) },
  };
}

function describeShifts(shifts: readonly Standing[]): string {
  if (shifts.length === 0) return 'Nobody was on shift.';
  const lines = shifts
    .slice(0, LEADERBOARD_SHOWN)
    .map((standing, i) => `**${i + 1}.** <@${standing.memberId}>: ${formatHours(standing.value)}`);
  const total = shifts.reduce((sum, standing) => sum + standing.value, 0);
  lines.push(`${shifts.length} on shift, ${formatHours(total)} in all`);
  return fitLines(lines, FIELD_MAX);
}

function describeQuotas(results: readonly QuotaResult[]): string {
  const lines: string[] = [];
  for (const { quota, window, members, cut } of results) {
    const met = members.filter((member) => member.standing.status === 'met').length;
    // Excused members (on leave) are neither met nor missed: counted apart.
    const excused = members.length - members.filter((member) => member.standing.status !== 'excused').length;
    lines.push(
      `<@&${quota.roleId}>: ${quota.hours} h a ${quota.per}, ${window.label}: ${met} of ${members.length - excused} met` +
        (excused > 0 ? `, ${excused} excused (leave)` : '') +
        (cut ? ' (among the 100 most on shift)' : ''),
    );
    for (const member of members) {
      lines.push(
        `${STATUS_MARKS[member.standing.status]} <@${member.memberId}> ${formatHours(member.seconds)}${leaveNote(member)}`,
      );
    }
    if (members.length === 0) lines.push('Nobody of the role was on shift in the last 90 days.');
  }
  return fitLines(lines, FIELD_MAX);
}

const STATUS_MARKS = { met: '✅', missed: '❌', excused: '🌴' } as const;

/** What leave changed of a member's quota: excused, or the reduced hours they were held to. */
function leaveNote({ standing }: QuotaResult['members'][number]): string {
  if (standing.leave === null) return '';
  if (standing.status === 'excused')
    return standing.leave === 'leave' ? ' · on leave, excused' : ' · reduced activity, excused';
  return ` · reduced activity: ${standing.targetHours ?? 0} h`;
}

function describeCases(cases: readonly CaseTypeCount[], moderators: readonly Standing[]): string {
  const count = cases.reduce((sum, row) => sum + row.count, 0);
  if (count === 0) return 'No cases.';
  const top = moderators
    .slice(0, 5)
    .map((standing) => `<@${standing.memberId}> ${standing.value}`)
    .join(' · ');
  return fitLines([`**${count}**: ${describeTotals(cases)}`, ...(top ? [`Most made: ${top}`] : [])], FIELD_MAX);
}

function describeModcalls(response: ModcallResponse): string {
  if (response.calls === 0) return 'No modcalls.';
  const median = percentile(response.toClaimMs, 0.5);
  const p90 = percentile(response.toClaimMs, 0.9);
  return [
    describeModcallCounts(response),
    median === undefined || p90 === undefined
      ? 'Time to claim: none claimed'
      : `Time to claim: median ${formatWait(median)}, p90 ${formatWait(p90)}`,
  ].join('\n');
}

function describeSessions(sessions: SessionTotals): string {
  if (sessions.sessions === 0) return 'No sessions.';
  const peak = sessions.peakPlayers === null ? '' : `, at most ${sessions.peakPlayers} players`;
  return `${sessions.sessions} ${sessions.sessions === 1 ? 'session' : 'sessions'}, ${formatHours(sessions.seconds)}${peak}`;
}

function describeDays(days: readonly GuildDay[]): string {
  const lines = days.map((day) => {
    const weekday = WEEKDAY_NAMES[new Date(day.day).getUTCDay()] ?? '?';
    return `${weekday} ${dayLabel(day.day)}: ${formatHours(day.shiftSeconds)} · ${day.cases} cases · ${day.modcalls} modcalls`;
  });
  return lines.length === 0 ? 'Nothing happened.' : fitLines(lines, FIELD_MAX);
}
