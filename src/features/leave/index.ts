import type { Store } from '../../store/store.js';
import { leaveModule } from './store/leave-module.js';
import type { LeaveStore } from './store/leave-store.js';

/** What other features may use of the leave feature. */
export type { LeaveKind, MemberLeave } from './store/leave-store.js';
export { judgeQuota, leaveByMember, type QuotaStanding, type QuotaStatus } from './quota-with-leave.js';

export { readActivity, type ActivitySources, type StaffActivityDeps } from './activity-report.js';
export { describeActivityShort } from './describe-activity.js';
export type { MemberActivity } from './staff-activity.js';
export { defineStaffActivity, showStaffActivity } from './commands/staff-activity.js';

/** Who is on leave, as other features read it (the duty board, quotas and the digest, the coverage guard). */
export type LeaveView = Pick<LeaveStore, 'onLeaveAt' | 'leaveIn' | 'memberLeaveIn' | 'reducedQuotasOf'>;

/** The reduced quotas of /quota (hours by role, for members on reduced activity), as the digest sets and reads them. */
export type ReducedQuotas = Pick<LeaveStore, 'setReducedQuota' | 'reducedQuotasOf'>;

/** The leave of `store` (opened with the leave feature's store module), as other features read it. */
export function leaveOf(store: Pick<Store, 'of'>): LeaveView & ReducedQuotas {
  return store.of(leaveModule);
}
