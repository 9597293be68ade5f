/**
 * The duty quotas and the weekly digest's schedule and posts: one migration of each engine (SQLite's 9th,
 * PostgreSQL's 13th), written once for both. History, never edited; a change is a new migration.
 *
 * - `duty_quota`: the hours each member of a role is to be on shift per week or month (/quota set).
 * - `digest_schedule`: where and when a guild's weekly digest is posted (/digest set); `next_at` is the end of the
 *   next week it covers, in ms, and the digest job reads only the guilds due by its index.
 * - `digest_post`: one row per guild and week, its key (guild_id, period_end): the process that inserts it posts
 *   the digest (asked_at), and `message_id` says it was posted. A second process, a restart or a retry finds the
 *   row, so a week's digest is posted once whatever happens. Kept a year (the sweep, by period_end).
 */
export function digestSchema(): string {
  return `
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
}

/**
 * A guild whose digest fails backs off, and the job's due read passes over it meanwhile: one migration of each
 * engine, after {@link digestSchema}'s.
 *
 * - `try_at`: when the job tries the guild next: `next_at`, or later while a failed post backs off. The due read
 *   goes by it (its index), so guilds whose channel refuses the digest do not fill every check's read.
 * - `failures`: the posts that failed in a row since it last moved on (the backoff doubles with each); 0 again once
 *   the schedule moves on or an admin sets it anew.
 */
export function digestBackoffSchema(): string {
  return `
    ALTER TABLE digest_schedule ADD COLUMN try_at BIGINT NOT NULL DEFAULT 0;
    ALTER TABLE digest_schedule ADD COLUMN failures INTEGER NOT NULL DEFAULT 0;
    UPDATE digest_schedule SET try_at = next_at;
    DROP INDEX digest_schedule_due;
    CREATE INDEX digest_schedule_try ON digest_schedule (try_at, guild_id);
  `;
}
