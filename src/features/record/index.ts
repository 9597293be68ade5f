import type { Store } from '../../store/store.js';
import type { CommunityRecord } from './store/community-record.js';
import { recordModule } from './store/record-module.js';
import type { RecordQueries } from './store/record-queries.js';
import type { SessionRecord } from './store/session-facts.js';
import type { StaffMoments } from './store/staff-moments.js';

/** What other features may use of the community record feature, and its part of the shared /staff. */
export { describeCaseCounts, describeTotals } from './case-lookup.js';
export { showStaffRecord, STAFF_RECORD_SUBCOMMANDS, type StaffCommandDeps } from './commands/staff.js';
export { auditLookup, memberSubject } from './audit-lookup.js';
export { requireRecordReader } from './record-access.js';
export { chosenPeriod, periodOption, periodRange } from './periods.js';
export type { ChartDrawer } from './chart-renderer.js';
export { describeModcallCounts, formatHours, formatWait, LEADERBOARD_SHOWN, percentile } from './describe-stats.js';
export { dayLabel } from './hours-per-day.js';
export { MAX_RECORD_RETENTION_DAYS, type CaseTypeCount, type ModcallHandling } from './store/community-record.js';
export { EXPORT_KINDS, type ExportKind, type RecordExport } from './store/record-export.js';
export type { MergedUpdate, WritesWithMerges } from './store/record-merge.js';
export type {
  Board,
  EarlierCases,
  GuildDay,
  MemberMonth,
  ModcallResponse,
  OpenShift,
  RangeActivity,
  RecordQueries,
  RunningSession,
  SessionTotals,
  Standing,
  TimeRange,
} from './store/record-queries.js';
export type { SessionFacts, SessionRecord, SessionShift } from './store/session-facts.js';
export type {
  CaseMoment,
  MomentCase,
  MomentReads,
  MomentShift,
  MomentSpans,
  StaffMoments,
} from './store/staff-moments.js';

/**
 * The community record as other features read it: its queries (who is on shift, which sessions run, a guild's
 * week), a session's facts, a modcall card's claim told to it (the cards), and how far its writer is behind (the
 * health report). Its writing, retention and settings stay the record feature's.
 */
export type RecordView = RecordQueries &
  SessionRecord &
  Pick<CommunityRecord, 'noteModcallHandled' | 'oldestUnrecordedAt' | 'settingsOf'>;

/** The community record of `store` (opened with the record's store module), as other features read it. */
export function recordOf(store: Pick<Store, 'of'>): RecordView {
  return store.of(recordModule);
}

/** The community record of `store` read as of a moment: who was on shift at a case's minute, and around it. */
export function staffMomentsOf(store: Pick<Store, 'of'>): StaffMoments {
  return store.of(recordModule).moments;
}
