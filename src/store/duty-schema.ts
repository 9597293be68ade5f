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
