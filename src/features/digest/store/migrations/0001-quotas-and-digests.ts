import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The duty quotas and the weekly digest's schedule and posts.
 *
 * - `duty_quota`: the hours each member of a role is to be on shift per week or month (/quota set).
 * - `digest_schedule`: where and when a guild's weekly digest is posted (/digest set); `next_at` is the end of the
 *   next week it covers, in ms, and the digest job reads only the guilds due by its index.
 * - `digest_post`: one row per guild and week, its key (guild_id, period_end): the process that inserts it posts
 *   the digest (asked_at), and `message_id` says it was posted. A second process, a restart or a retry finds the
 *   row, so a week's digest is posted once whatever happens. Kept a year (the sweep, by period_end).
 */
const SQL = `
    CREATE TABLE duty_quota (
      guild_id TEXT NOT NULL,
      role_id  TEXT NOT NULL,
      hours    INTEGER NOT NULL,
      per      TEXT NOT NULL CHECK (per IN ('week', 'month')),
      PRIMARY KEY (guild_id, role_id)
    );

    CREATE TABLE digest_schedule (
      guild_id   TEXT PRIMARY KEY,
      channel_id TEXT NOT NULL,
      weekday    INTEGER NOT NULL,
      hour       INTEGER NOT NULL,
      time_zone  TEXT NOT NULL,
      next_at    BIGINT NOT NULL
    );
    CREATE INDEX digest_schedule_due ON digest_schedule (next_at);

    CREATE TABLE digest_post (
      guild_id   TEXT NOT NULL,
      period_end BIGINT NOT NULL,
      channel_id TEXT NOT NULL,
      asked_at   BIGINT NOT NULL,
      message_id TEXT,
      posted_at  BIGINT,
      PRIMARY KEY (guild_id, period_end)
    );
    CREATE INDEX digest_post_by_time ON digest_post (period_end);
`;

export const quotasAndDigests: MigrationStep = {
  name: 'quotas-and-digests',
  legacy: { sqlite: 9, postgres: 13 },
  sqlite: SQL,
  postgres: SQL,
};
