import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { dutyGuild } from './0001-duty-guild.js';
import { coverage } from './0002-coverage.js';
import { roleHolders } from './0003-role-holders.js';
import { boardAsked } from './0004-board-asked.js';

/** The duty feature's schema, step by step, in order; a new step goes at the end. */
export const DUTY_MIGRATIONS: readonly MigrationStep[] = [dutyGuild, coverage, roleHolders, boardAsked];
