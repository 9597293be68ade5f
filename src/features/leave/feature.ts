import { checkRoleGrant } from '../../discord/check-role-grant.js';
import { quotasOf } from '../digest/index.js';
import type { BotParts, Feature } from '../feature.js';
import { recordOf, type RecordView } from '../record/index.js';
import type { StaffActivityDeps } from './activity-report.js';
import { LEAVE_ROLE, LeaveJob } from './leave-job.js';
import { leaveTimeline } from './leave-timeline.js';
import { RequesterReach } from './requester-reach.js';
import { leaveModule } from './store/leave-module.js';
import type { LeaveStore } from './store/leave-store.js';

/** A request is kept 5 years after its leave ended (`/staff history` shows a member's leave over years). */
export const LEAVE_KEPT_MS = 5 * 366 * 24 * 60 * 60 * 1000;

/** What /leave, its buttons and /staff activity are given. */
export interface LeaveDeps {
  leave: LeaveStore;
  /** The record's staff role: who may ask for leave. */
  community: Pick<RecordView, 'settingsOf'>;
  /** Something of a request became due (stored, approved, ended early, cancelled): the job looks now. */
  leaveChanged(guildId: string): void;
  requesters: RequesterReach;
}

/** What the leave feature tells other features (wired in src/features/index.ts). */
export interface LeaveListeners {
  /** A leave started, ended or was approved in the guild: the duty board and the coverage guard look again. */
  onLeaveChanged?: (guildId: string) => void;
}

export interface LeaveFeature extends Feature<LeaveDeps> {
  /** The job that posts cards and starts and ends leave (tests wait for it). */
  job: LeaveJob;
  /** What /staff activity reads: lent to the record's /staff by the features' list. */
  staffActivity: StaffActivityDeps['activity'];
  /** A member's leave on /staff history's timeline: handed to the staff actions by the features' list. */
  timeline: ReturnType<typeof leaveTimeline>;
}

/**
 * Leave of absence and reduced activity (/leave): requests, their cards with Approve and Deny for the leave managers,
 * and the job that starts and ends approved leave by itself (giving the leave role for its duration, only while
 * whoever chose it and whoever approved could give it themselves). Other features read who is on leave through its
 * index.ts (the duty board, quotas and the digest, the coverage guard).
 */
export function createLeaveFeature(parts: BotParts, listeners: LeaveListeners = {}): LeaveFeature {
  const leave = parts.store.of(leaveModule);
  const told = listeners.onLeaveChanged ?? (() => undefined);
  const job = new LeaveJob({
    leave,
    poster: parts.poster,
    findPosted: parts.findPosted,
    nonceWindowMs: parts.nonceWindowMs,
    rest: parts.discord.rest,
    refusalOf: async (guildId, roleId, managers) => {
      for (const id of managers) {
        const refusal = await checkRoleGrant(parts.discord, guildId, roleId, { id, addressed: false }, LEAVE_ROLE);
        if (refusal !== null) return refusal;
      }
      return managers.length > 0 ? null : checkRoleGrant(parts.discord, guildId, roleId, null, LEAVE_ROLE);
    },
    onLeaveChanged: told,
    timers: parts.timers,
    clock: parts.clock,
    logger: parts.logger,
  });
  return {
    deps: {
      leave,
      community: recordOf(parts.store),
      leaveChanged: (guildId) => {
        job.wake();
        told(guildId);
      },
      requesters: new RequesterReach(parts.discord, parts.clock),
    },
    jobs: [job],
    job,
    timeline: leaveTimeline(leave, parts.clock),
    staffActivity: {
      record: recordOf(parts.store),
      leave,
      quotas: quotasOf(parts.store),
      community: recordOf(parts.store),
    },
    sweep: (now) => leave.sweep(now - LEAVE_KEPT_MS),
  };
}
