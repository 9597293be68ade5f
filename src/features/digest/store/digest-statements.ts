import type { SqlDialect } from '../../../store/sql-dialect.js';
import { columns } from '../../../store/table-columns.js';

const QUOTA = columns('duty_quota', 'role_id', 'hours', 'per');
const SCHEDULE = columns(
  'digest_schedule',
  'guild_id',
  'channel_id',
  'weekday',
  'hour',
  'time_zone',
  'next_at',
  'try_at',
  'failures',
);
const POST = columns('digest_post', 'asked_at', 'message_id');

/** The statements of the quotas and the weekly digest (digests.ts), written once for both engines. */
export function digestStatements(d: SqlDialect) {
  return {
    setQuota: d.sql<never, [string, string, number, string]>(
      `INSERT INTO duty_quota (guild_id, role_id, hours, per) VALUES (?, ?, ?, ?)
       ON CONFLICT (guild_id, role_id) DO UPDATE SET hours = excluded.hours, per = excluded.per`,
    ),
    clearQuota: d.sql<never, [string, string]>('DELETE FROM duty_quota WHERE guild_id = ? AND role_id = ?'),
    quotasOf: d.select(QUOTA).from<[string]>('duty_quota WHERE guild_id = ? ORDER BY role_id'),

    // Set anew, a schedule is tried at its time: an admin who changed the channel need not wait out a backoff.
    setSchedule: d.sql<never, [string, string, number, number, string, number, number]>(
      `INSERT INTO digest_schedule (guild_id, channel_id, weekday, hour, time_zone, next_at, try_at, failures)
       VALUES (?, ?, ?, ?, ?, ?, ?, 0)
       ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, weekday = excluded.weekday,
         hour = excluded.hour, time_zone = excluded.time_zone, next_at = excluded.next_at, try_at = excluded.try_at,
         failures = 0`,
    ),
    clearSchedule: d.sql<never, [string]>('DELETE FROM digest_schedule WHERE guild_id = ?'),
    scheduleOf: d.select(SCHEDULE).from<[string]>('digest_schedule WHERE guild_id = ?'),
    // By the index on (try_at, guild_id): a guild backing off has its try_at ahead, so it is not read until then.
    dueSchedules: d
      .select(SCHEDULE)
      .from<[number, number]>('digest_schedule WHERE try_at <= ? ORDER BY try_at, guild_id LIMIT ?'),
    advanceSchedule: d.sql<never, [number, number, string, number]>(
      'UPDATE digest_schedule SET next_at = ?, try_at = ?, failures = 0 WHERE guild_id = ? AND next_at = ?',
    ),
    backOffSchedule: d.sql<never, [number, string, number]>(
      'UPDATE digest_schedule SET try_at = ?, failures = failures + 1 WHERE guild_id = ? AND next_at = ?',
    ),

    // The first caller's row stands (the key); a later one reads it.
    insertPost: d.sql<never, [string, number, string, number]>(
      `INSERT INTO digest_post (guild_id, period_end, channel_id, asked_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (guild_id, period_end) DO NOTHING`,
    ),
    postOf: d.select(POST).from<[string, number]>('digest_post WHERE guild_id = ? AND period_end = ?'),
    // Taken over only from the take the caller saw (compare and set): of two callers, one changes the row.
    retakePost: d.sql<never, [number, string, number, number]>(
      `UPDATE digest_post SET asked_at = ?
       WHERE guild_id = ? AND period_end = ? AND asked_at = ? AND message_id IS NULL`,
    ),
    markPosted: d.sql<never, [string, number, string, number]>(
      'UPDATE digest_post SET message_id = ?, posted_at = ? WHERE guild_id = ? AND period_end = ?',
    ),
    sweepPosts: d.sql<never, [number, number]>(
      `DELETE FROM digest_post WHERE (guild_id, period_end) IN
         (SELECT guild_id, period_end FROM digest_post WHERE period_end < ? ORDER BY period_end LIMIT ?)`,
    ),
  };
}
