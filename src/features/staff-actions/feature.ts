import { auditOf } from '../audit/index.js';
import type { BotParts, Feature } from '../feature.js';
import { recordOf } from '../record/index.js';
import type { StaffActionsDeps } from './deps.js';
import { staffActionsModule } from './store/staff-actions-module.js';
import type { TimelineSource } from './timeline.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long an infraction or promotion is kept from when it was given: five years of a member's history. */
export const STAFF_ACTIONS_RETENTION_DAYS = 1_830;
/** A promotion asked and never confirmed (the process stopped between) is dropped after this. */
const UNCONFIRMED_MS = 60 * 60 * 1000;
/** Rows deleted per statement of the hourly sweep, and the most statements per sweep: bounded slices. */
const SWEEP_SLICE = 500;
const SWEEP_SLICES = 20;

/**
 * Discipline and promotions: /staff infraction, infraction-void, history, promote, demote, ranks and setup (parts
 * of the shared /staff, src/commands/staff.ts), kept in the staff actions' store module and shown beside the
 * community record's figures, read through the record's index.ts. `timeline`: what other features add to a
 * member's history (the features' list hands them).
 */
export function createStaffActionsFeature(
  parts: BotParts,
  timeline: readonly TimelineSource[] = [],
): Feature<StaffActionsDeps> {
  const staffActions = parts.store.of(staffActionsModule);
  return {
    deps: {
      staffActions,
      staffRecord: recordOf(parts.store),
      timeline,
      audit: auditOf(parts.store),
      poster: parts.poster,
      findPosted: parts.findPosted,
      nonceWindowMs: parts.nonceWindowMs,
    },
    async sweep(now) {
      const before = now - STAFF_ACTIONS_RETENTION_DAYS * DAY_MS;
      let swept = 0;
      for (let slice = 0; slice < SWEEP_SLICES; slice++) {
        const deleted = await staffActions.sweep(before, now - UNCONFIRMED_MS, SWEEP_SLICE);
        swept += deleted;
        if (deleted < SWEEP_SLICE) break;
      }
      return swept;
    },
    keptGuilds: () => staffActions.keptGuilds(),
  };
}
