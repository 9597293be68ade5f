import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The coverage guard: `duty_guild` gains a guild's /duty minimum, the least staff on shift while a session runs
 * (`min_staff`, NULL: no guard), how many minutes a shortfall may last before it is an alert (`min_after_minutes`),
 * and since when the guild has been short (`uncovered_since`, NULL while covered), kept so a restart does not
 * start the wait anew. (The running sessions' index was made in the same numbered step:
 * src/features/record/store/migrations/.)
 */
const SQL = `
    ALTER TABLE duty_guild ADD COLUMN min_staff INTEGER;
    ALTER TABLE duty_guild ADD COLUMN min_after_minutes INTEGER;
    ALTER TABLE duty_guild ADD COLUMN uncovered_since BIGINT;
`;

export const coverage: MigrationStep = {
  name: 'coverage',
  legacy: { sqlite: 11, postgres: 15 },
  sqlite: SQL,
  postgres: SQL,
};
