import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The sessions with a start and no end (a few per guild), so the coverage guard reads whether a session runs
 * (`runningSessions`) without walking a guild's year of sessions. Made with the coverage guard's columns, in the
 * same numbered step.
 */
const SQL = `
    CREATE INDEX record_session_running ON record_session (guild_id, started_at)
      WHERE ended_at IS NULL AND started_at IS NOT NULL;
`;

export const runningSessionsIndex: MigrationStep = {
  name: 'running-sessions-index',
  legacy: { sqlite: 11, postgres: 15 },
  sqlite: SQL,
  postgres: SQL,
};
