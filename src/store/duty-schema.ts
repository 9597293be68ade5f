import type { SqlDialect } from './sql-dialect.js';

/**
 * The duty feature's schema (SQLite's 10th migration, PostgreSQL's 14th): history, never edited. Written once for
 * both engines.
 *
 * `duty_guild` holds a guild's choices of /duty: the channel of its on-duty board and the id of the board's
 * message there (NULL until the first post, and again when it was deleted and not yet posted anew), and the
 * role given to the members on shift. A guild without a row has neither.
 *
 * `record_shift_open` lists only the shifts with no end (a few per guild), so the board and the role read who is
 * on shift without walking a guild's year of shifts.
 */
export function dutySchema(_d: SqlDialect): string {
  return `
    CREATE TABLE duty_guild (
      guild_id         TEXT PRIMARY KEY,
      board_channel_id TEXT,
      board_message_id TEXT,
      role_id          TEXT
    );
    CREATE INDEX record_shift_open ON record_shift (guild_id, at) WHERE ended_at IS NULL;
  `;
}

/**
 * The coverage guard's schema (SQLite's 11th migration, PostgreSQL's 15th): history, never edited.
 *
 * `duty_guild` gains a guild's /duty minimum: the least staff on shift while a session runs (`min_staff`, NULL:
 * no guard), how many minutes a shortfall may last before it is an alert (`min_after_minutes`), and since when
 * the guild has been short (`uncovered_since`, NULL while covered), kept so a restart does not start the wait
 * anew.
 *
 * `record_session_running` lists only the sessions with a start and no end (a few per guild), so the guard reads
 * whether a session runs without walking a guild's year of sessions.
 */
export function coverageSchema(): string {
  return `
    ALTER TABLE duty_guild ADD COLUMN min_staff INTEGER;
    ALTER TABLE duty_guild ADD COLUMN min_after_minutes INTEGER;
    ALTER TABLE duty_guild ADD COLUMN uncovered_since BIGINT;
    CREATE INDEX record_session_running ON record_session (guild_id, started_at)
      WHERE ended_at IS NULL AND started_at IS NOT NULL;
  `;
}

/**
 * The on-duty role's holders (SQLite's 12th migration, PostgreSQL's 16th): history, never edited.
 *
 * `duty_guild.role_set_by` is the member who chose the role with /duty role (NULL for a role chosen before it was
 * kept): the role is given only while that member could still give it themselves.
 *
 * `duty_role_holder` is each member the bot gave a role to for a shift, per role: written before the bot asks
 * Discord (`given_at` NULL until Discord answered), deleted once the role is taken back, so a restart, another
 * process or a changed /duty role knows whom to take it from. A guild has a row per member holding it (the staff
 * on shift); forgetting the guild deletes its rows.
 */
export function dutyRoleHoldersSchema(): string {
  return `
    ALTER TABLE duty_guild ADD COLUMN role_set_by TEXT;
    CREATE TABLE duty_role_holder (
      guild_id  TEXT NOT NULL,
      member_id TEXT NOT NULL,
      role_id   TEXT NOT NULL,
      given_at  BIGINT,
      PRIMARY KEY (guild_id, member_id, role_id)
    );
  `;
}

/**
 * The board's resend (the migration after the on-duty role holders' and the modcall cards'): history, never
 * edited.
 *
 * `duty_guild` gains `board_asked_at`: when the board's next post was written down (its nonce is the guild's,
 * channel's and previous message's, so it needs no column), NULL once the post's id is noted or the board moves.
 * A try of the post later than Discord keeps nonces looks for the post an earlier try made first.
 */
export function boardAskedSchema(): string {
  return `
    ALTER TABLE duty_guild ADD COLUMN board_asked_at BIGINT;
  `;
}
