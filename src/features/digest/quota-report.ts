import { judgeQuota, leaveByMember, type LeaveView, type QuotaStanding } from '../leave/index.js';
import type { RecordQueries, Standing, TimeRange } from '../record/index.js';
import type { Quota } from './store/digests.js';

/** How far back the record is read for the members a quota may concern: anyone on shift in this time. */
const STAFF_SEEN_MS = 90 * 24 * 60 * 60 * 1000;
/** Members looked up per digest at most (one request each): the bot does not ask for the member list. */
const MOST_LOOKED_UP = 100;

/** One member's hours against their role's quota. */
export interface QuotaMember {
  memberId: string;
  seconds: number;
  /** Met, or excused by leave: not missed. */
  met: boolean;
  /** Met, missed or excused, and the hours they were to reach (reduced activity has its own). */
  standing: QuotaStanding;
}

/** A quota and how each member of its role did in its window. */
export interface QuotaResult {
  /** With its reduced hours for members on reduced activity (/quota set reduced:), if it has them. */
  quota: Quota & { reducedHours?: number };
  /** The week of the digest, or the calendar month (UTC) it ends in, so far. */
  window: TimeRange & { label: string };
  members: QuotaMember[];
  /** Some members may be missing: more were on shift in 90 days than are looked up. */
  cut: boolean;
}

/** Whether a member has a role: a lookup of one member (undefined when they left the server). */
export type RoleCheck = (memberId: string, roleId: string) => Promise<boolean | undefined>;

/** The window a quota is judged over for a digest of the week `week`. */
export function quotaWindow(quota: Quota, week: TimeRange): TimeRange & { label: string } {
  if (quota.per === 'week') return { ...week, label: 'this week' };
  const last = new Date(week.to - 1);
  const from = Date.UTC(last.getUTCFullYear(), last.getUTCMonth(), 1);
  return { from, to: week.to, label: 'this month so far' };
}

/**
 * Each quota's members and their hours in its window. The members of a role are found among those the record
 * saw on shift in the last 90 days (the bot does not ask Discord for the member list): a member of the role
 * who never worked a shift in that time is not listed.
 */
export async function quotaResults(
  record: Pick<RecordQueries, 'leaderboard'>,
  leave: Pick<LeaveView, 'leaveIn' | 'reducedQuotasOf'>,
  hasRole: RoleCheck,
  guildId: string,
  quotas: readonly Quota[],
  week: TimeRange,
): Promise<QuotaResult[]> {
  if (quotas.length === 0) return [];
  const seen = await record.leaderboard(guildId, 'shifts', { from: week.to - STAFF_SEEN_MS, to: week.to });
  const candidates = seen.slice(0, MOST_LOOKED_UP);
  const reduced = await leave.reducedQuotasOf(guildId);
  const results: QuotaResult[] = [];
  for (const roleQuota of quotas) {
    const reducedHours = reduced.get(roleQuota.roleId);
    const quota = reducedHours === undefined ? roleQuota : { ...roleQuota, reducedHours };
    const window = quotaWindow(quota, week);
    const inWindow = secondsByMember(await record.leaderboard(guildId, 'shifts', window));
    // Approved leave in the window: a member on leave is excused, one on reduced activity has the reduced quota.
    const onLeave = leaveByMember(await leave.leaveIn(guildId, window.from, window.to));
    const members: QuotaMember[] = [];
    for (const candidate of candidates) {
      if ((await hasRole(candidate.memberId, quota.roleId)) !== true) continue;
      const seconds = inWindow.get(candidate.memberId) ?? 0;
      const standing = judgeQuota(seconds, quota, onLeave.get(candidate.memberId) ?? [], window);
      members.push({ memberId: candidate.memberId, seconds, met: standing.status !== 'missed', standing });
    }
    members.sort((a, b) => b.seconds - a.seconds || a.memberId.localeCompare(b.memberId));
    results.push({ quota, window, members, cut: seen.length > MOST_LOOKED_UP });
  }
  return results;
}

function secondsByMember(standings: readonly Standing[]): Map<string, number> {
  return new Map(standings.map((standing) => [standing.memberId, standing.value]));
}
