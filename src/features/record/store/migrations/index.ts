import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { recordTables } from './0001-tables.js';
import { sweepDue } from './0002-sweep-due.js';
import { openShiftsIndex } from './0003-open-shifts-index.js';
import { runningSessionsIndex } from './0004-running-sessions-index.js';
import { modcallCards } from './0005-modcall-cards.js';
import { memberHistoryIndexes } from './0006-member-history-indexes.js';
import { caseEvidence } from './0007-case-evidence.js';
import { staffIndexes } from './0008-staff-indexes.js';
import { standingCasesByDay } from './0009-standing-cases-by-day.js';

/** The community record's schema, step by step, in order; a new step goes at the end. */
export const RECORD_MIGRATIONS: readonly MigrationStep[] = [
  recordTables,
  sweepDue,
  openShiftsIndex,
  runningSessionsIndex,
  modcallCards,
  memberHistoryIndexes,
  caseEvidence,
  staffIndexes,
  standingCasesByDay,
];
