import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * Two reads of the conduct guard (src/features/conduct/), over the guild's record as of a case's moment: whether a
 * case's target had clocked in as staff by then (a shift with the target's Roblox id), and one member's voids
 * within a few minutes (the voided cases only: a few per guild among its year of cases).
 */
const SQL = `
    CREATE INDEX record_shift_by_roblox ON record_shift (guild_id, roblox_id, at);
    CREATE INDEX record_case_by_voider ON record_case (guild_id, voided_by, voided_at) WHERE voided_at IS NOT NULL;
`;

export const staffIndexes: MigrationStep = {
  name: 'staff-indexes',
  sqlite: SQL,
  postgres: SQL,
};
