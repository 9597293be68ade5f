import type { MemberLeave } from './store/leave-store.js';

/** How a member stands against a quota: met, missed, or excused by leave. */
export type QuotaStatus = 'met' | 'missed' | 'excused';

/** A member's standing against a quota over a window, with their approved leave taken into account. */
export interface QuotaStanding {
  status: QuotaStatus;
  /** The hours they were to reach (the reduced quota on reduced activity); null when excused. */
  targetHours: number | null;
  /** The leave that changed their quota: on leave (excused), on reduced activity, or none. */
  leave: MemberLeave['kind'] | null;
}

/**
 * Judges a member's time on shift against a quota (`hours`, and `reducedHours` for reduced activity) over
 * `window`, given their approved leave. Any leave of absence overlapping the window excuses them; otherwise any
 * reduced activity overlapping it sets their target to the reduced hours (excused when the quota has none);
 * otherwise the quota's hours. Leave outside the window changes nothing.
 */
export function judgeQuota(
  seconds: number,
  quota: { hours: number; reducedHours?: number | undefined },
  leave: ReadonlyArray<Pick<MemberLeave, 'kind' | 'startsAt' | 'endsAt'>>,
  window: { from: number; to: number },
): QuotaStanding {
  const overlapping = leave.filter((l) => l.startsAt < window.to && l.endsAt > window.from);
  if (overlapping.some((l) => l.kind === 'leave')) return { status: 'excused', targetHours: null, leave: 'leave' };
  if (overlapping.some((l) => l.kind === 'reduced')) {
    if (quota.reducedHours === undefined) return { status: 'excused', targetHours: null, leave: 'reduced' };
    return { status: met(seconds, quota.reducedHours), targetHours: quota.reducedHours, leave: 'reduced' };
  }
  return { status: met(seconds, quota.hours), targetHours: quota.hours, leave: null };
}

/** The members' leave by member: what {@link judgeQuota} is given for each. */
export function leaveByMember<L extends Pick<MemberLeave, 'memberId'>>(leave: readonly L[]): Map<string, L[]> {
  const byMember = new Map<string, L[]>();
  for (const l of leave) byMember.set(l.memberId, [...(byMember.get(l.memberId) ?? []), l]);
  return byMember;
}

function met(seconds: number, hours: number): QuotaStatus {
  return seconds >= hours * 3600 ? 'met' : 'missed';
}
