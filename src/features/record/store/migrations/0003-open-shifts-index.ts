import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The shifts with no end (a few per guild), so the on-duty board and role read who is on shift (`openShifts`)
 * without walking a guild's year of shifts. Made with the duty feature's table, in the same numbered step.
 */
const SQL = `
    CREATE INDEX record_shift_open ON record_shift (guild_id, at) WHERE ended_at IS NULL;
`;

export const openShiftsIndex: MigrationStep = {
  name: 'open-shifts-index',
  legacy: { sqlite: 10, postgres: 14 },
  sqlite: SQL,
  postgres: SQL,
};
