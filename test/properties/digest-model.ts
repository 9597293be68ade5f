import type { DigestFacts } from '../../src/features/digest/describe-digest.js';
import type { QuotaResult } from '../../src/features/digest/quota-report.js';
import type { Quota } from '../../src/features/digest/store/digests.js';
import type { GuildDay, TimeRange } from '../../src/features/record/store/record-queries.js';
import { DAY } from './community-events.js';
import {
  compareText,
  guildCases,
  guildDays,
  leaderboard,
  modcallResponse,
  sessionTotals,
  zoneDate,
  type Known,
} from './record-model.js';

/*
 * The plain model of a week's digest: its week is the zone's wall-clock week (from the same weekday and hour a week
 * before, whatever daylight saving time did in between), and each of its figures is the record model's for that week.
 */

/** The wall clock of `timeZone` at `ms`, to the minute. */
function wallOf(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).format(ms);
}

/**
 * When the week ending at `end` began: the moment the wall clock of `timeZone` showed the same time seven days
 * earlier. A change of daylight saving time in between makes the week an hour shorter or longer than 168 h.
 */
export function wallWeekBefore(end: number, timeZone: string): number {
  const endWall = new Date(Date.parse(`${wallOf(end, timeZone).replace(', ', 'T')}:00Z`) - 7 * DAY);
  const wanted = wallOf(endWall.getTime(), 'UTC');
  const candidates = [-2, -1, 0, 1, 2].map((hours) => end - 7 * DAY + hours * 3_600_000);
  const found = candidates.find((candidate) => wallOf(candidate, timeZone) === wanted);
  if (found === undefined) throw new Error(`no wall-clock week before ${new Date(end).toISOString()} in ${timeZone}`);
  return found;
}

/** How the members of each role are looked up: who has which role. */
export type Roles = ReadonlyMap<string, readonly string[]>;

const STAFF_SEEN_MS = 90 * DAY;

/**
 * Each quota's members and their hours: the members of the role among those on shift in the 90 days before the week
 * ended, their seconds in the quota's window (the week, or the calendar month in UTC so far, as /quota documents).
 */
function quotaResults(known: Known, roles: Roles, quotas: readonly Quota[], week: TimeRange): QuotaResult[] {
  const seen = leaderboard(known, 'shifts', { from: week.to - STAFF_SEEN_MS, to: week.to });
  // Each role's quota, by role id, as /quota list shows them.
  const byRole = [...quotas].sort((a, b) => compareText(a.roleId, b.roleId));
  return byRole.map((quota) => {
    const last = new Date(week.to - 1);
    const window =
      quota.per === 'week'
        ? { ...week, label: 'this week' }
        : { from: Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 1), to: week.to, label: 'this month so far' };
    const inWindow = leaderboard(known, 'shifts', window);
    const members = seen
      .slice(0, 100)
      .filter((standing) => roles.get(standing.memberId)?.includes(quota.roleId))
      .map((standing) => {
        const seconds = inWindow.find((found) => found.memberId === standing.memberId)?.value ?? 0;
        const met = seconds >= quota.hours * 3600;
        // Nobody is on leave in this model: each member is to reach the quota's hours.
        const status = met ? ('met' as const) : ('missed' as const);
        return {
          memberId: standing.memberId,
          seconds,
          met,
          standing: { status, targetHours: quota.hours, leave: null },
        };
      })
      .sort((a, b) => b.seconds - a.seconds || a.memberId.localeCompare(b.memberId));
    return { quota, window, members, cut: seen.length > 100 };
  });
}

/** Every date of the zone the week touches, with the model's figures (none where nothing happened). */
function everyDay(known: Known, week: TimeRange, timeZone: string): GuildDay[] {
  const found = new Map(guildDays(known, week, timeZone).map((day) => [day.day, day]));
  const days: GuildDay[] = [];
  for (let day = zoneDate(week.from, timeZone); day <= zoneDate(week.to - 1, timeZone); day += DAY) {
    days.push(found.get(day) ?? { day, shiftSeconds: 0, cases: 0, modcalls: 0 });
  }
  return days;
}

/** What the digest of the week ending at `weekEnd` should say, posted at `now`. */
export function digestFacts(
  known: Known,
  schedule: { weekEnd: number; timeZone: string; now: number },
  quotas: readonly Quota[],
  roles: Roles,
): DigestFacts {
  const { weekEnd, timeZone, now } = schedule;
  const week = { from: wallWeekBefore(weekEnd, timeZone), to: weekEnd };
  return {
    week,
    timeZone,
    lateMs: now - weekEnd,
    shifts: leaderboard(known, 'shifts', week),
    quotas: quotaResults(known, roles, quotas, week),
    cases: guildCases(known, week),
    moderators: leaderboard(known, 'cases', week),
    modcalls: modcallResponse(known, week),
    sessions: sessionTotals(known, week),
    days: everyDay(known, week, timeZone),
  };
}
