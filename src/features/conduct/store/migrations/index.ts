import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { conductTables } from './0001-conduct.js';

/** The conduct guard's schema, step by step, in order; a new step goes at the end. */
export const CONDUCT_MIGRATIONS: readonly MigrationStep[] = [conductTables];
