import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { staffActionsTables } from './0001-tables.js';

/** The staff actions' schema, step by step, in order; a new step goes at the end. */
export const STAFF_ACTIONS_MIGRATIONS: readonly MigrationStep[] = [staffActionsTables];
