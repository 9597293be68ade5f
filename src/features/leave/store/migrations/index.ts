import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { leaveTables } from './0001-leave.js';
import { reducedQuota } from './0002-reduced-quota.js';

/** Leave's schema, step by step, in order; a new step goes at the end. */
export const LEAVE_MIGRATIONS: readonly MigrationStep[] = [leaveTables, reducedQuota];
