import type { SqlDialect } from './sql-dialect.js';
import { columns } from './table-columns.js';

const QUOTA = columns('duty_quota', 'role_id', 'hours', 'per');
const SCHEDULE = columns('digest_schedule', 'guild_id', 'channel_id', 'weekday', 'hour', 'time_zone', 'next_at');
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

    setSchedule: d.sql<never, [string, string, number, number, string, number]>(
      `INSERT INTO digest_schedule (guild_id, channel_id, weekday, hour, time_zone, next_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, weekday = excluded.weekday,
         hour = excluded.hour, time_zone = excluded.time_zone, next_at = excluded.next_at`,
    ),
    clearSchedule: d.sql<never, [string]>('DELETE FROM digest_schedule WHERE guild_id = ?'),
    scheduleOf: d.select(SCHEDULE).from<[string]>('digest_schedule WHERE guild_id = ?'),
    dueSchedules: d
      .select(SCHEDULE)
      .from<[number, number]>('digest_schedule WHERE next_at <= ? ORDER BY next_at LIMIT ?'),
    advanceSchedule: d.sql<never, [number, string, number]>(
      'UPDATE digest_schedule SET next_at = ? WHERE guild_id = ? AND next_at = ?',
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
