import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * A guild whose digest fails backs off, and the job's due read passes over it meanwhile.
 *
 * - `try_at`: when the job tries the guild next: `next_at`, or later while a failed post backs off. The due read
 *   goes by it (its index), so guilds whose channel refuses the digest do not fill every check's read.
 * - `failures`: the posts that failed in a row since it last moved on (the backoff doubles with each); 0 again once
 *   the schedule moves on or an admin sets it anew.
 */
const SQL = `
    ALTER TABLE digest_schedule ADD COLUMN try_at BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE digest_schedule ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
    UPDATE digest_schedule SET try_at = next_at;
    DROP INDEX digest_schedule_due;
    CREATE INDEX digest_schedule_try ON digest_schedule (try_at, guild_id);
`;

export const backoff: MigrationStep = {
  name: 'backoff',
  legacy: { sqlite: 16, postgres: 20 },
  sqlite: SQL,
  postgres: SQL,
};
