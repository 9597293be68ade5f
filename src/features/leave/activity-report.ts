import type { Guild } from 'discord.js';

import type { quotasOf } from '../digest/index.js';
import type { RecordView, TimeRange } from '../record/index.js';
import { judgeQuotas, tallyActivity, type MemberActivity } from './staff-activity.js';
import type { LeaveStore } from './store/leave-store.js';

/** Members whose roles are looked up at most (one request each, the cached ones free). */
const MOST_LOOKED_UP = 100;

/** What /staff activity and the digest read. */
export interface ActivitySources {
  record: Pick<RecordView, 'activityIn'>;
  leave: Pick<LeaveStore, 'leaveIn' | 'reducedQuotasOf'>;
  quotas: ReturnType<typeof quotasOf>;
}

/** What /staff activity is given (lent to the record's /staff by the features' list). */
export interface StaffActivityDeps {
  activity: ActivitySources & { community: Pick<RecordView, 'settingsOf'> };
}

/**
 * Each member's activity over the range (staff-activity.ts), their roles read from Discord for their quota and
 * for `roleId` (only its members listed, when given): the first {@link MOST_LOOKED_UP}, most hours first.
 */
export async function readActivity(
  sources: ActivitySources,
  guild: Pick<Guild, 'members'> | undefined,
  guildId: string,
  range: TimeRange,
  now: number,
  roleId: string | null,
): Promise<{ members: MemberActivity[]; cut: boolean }> {
  const [activity, leave, quotas, reduced] = await Promise.all([
    sources.record.activityIn(guildId, range),
    sources.leave.leaveIn(guildId, range.from, range.to),
    sources.quotas.quotasOf(guildId),
    sources.leave.reducedQuotasOf(guildId),
  ]);
  const roles = new Map<string, readonly string[]>();
  const input = { activity, leave, quotas, reduced, range, now, rolesOf: (id: string) => roles.get(id) ?? [] };
  const tallied = tallyActivity(input);
  // Roles are looked up only where they matter: a quota to judge, or a role to keep.
  const looked = quotas.length > 0 || roleId !== null ? tallied : [];
  let cut = false;
  for (const [i, member] of looked.entries()) {
    if (i === MOST_LOOKED_UP) {
      cut = true;
      break;
    }
    const found = await guild?.members.fetch(member.memberId).catch(() => undefined);
    roles.set(member.memberId, found ? [...found.roles.cache.keys()] : []);
  }
  const members = judgeQuotas(tallied, input).filter(
    (member) => roleId === null || (roles.get(member.memberId) ?? []).includes(roleId),
  );
  return { members, cut: cut && roleId !== null };
}
