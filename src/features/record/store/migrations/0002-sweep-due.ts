import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * When each guild's record next has a row past its retention: its oldest row's time plus its retention (NULL
 * while it has no row). The writer lowers it as it merges, the sweep sets it again after deleting, and the hourly
 * sweep reads only the guilds due (by this index), never every guild. Existing guilds are due at once, so the
 * first sweep sets theirs.
 */
const SQL = `
    ALTER TABLE record_guild ADD COLUMN due_at BIGINT;
    UPDATE record_guild SET due_at = 0;
    CREATE INDEX record_guild_due ON record_guild (due_at) WHERE due_at IS NOT NULL;
`;

export const sweepDue: MigrationStep = {
  name: 'sweep-due',
  legacy: { sqlite: 8, postgres: 12 },
  sqlite: SQL,
  postgres: SQL,
};
