import type { SqlDialect } from '../../../store/sql-dialect.js';
import { columns, type RowOf } from '../../../store/table-columns.js';

const SETTINGS = columns('leave_settings', 'channel_id', 'manager_role_id', 'role_id', 'role_set_by', 'time_zone');
const REQUEST = columns(
  'leave_request',
  'guild_id',
  'number',
  'member_id',
  'kind',
  'starts_at',
  'ends_at',
  'planned_end',
  'reason',
  'state',
  'asked_at',
  'decided_by',
  'decided_at',
  'card_channel_id',
  'card_message_id',
  'card_asked_at',
  'work',
  'try_at',
  'failures',
);
export type RequestRow = RowOf<typeof REQUEST>;
const LEAVE = columns('leave_request', 'member_id', 'number', 'kind', 'starts_at', 'ends_at');
export type LeaveRow = RowOf<typeof LEAVE>;
const NEXT = columns('leave_request', 'try_at');
const REDUCED = columns('leave_reduced_quota', 'role_id', 'hours');
const HOLDER = columns('leave_role_holder', 'number', 'member_id', 'role_id', 'given_at');

/** A request that holds its time: pending, or approved (denied and cancelled ones hold none). */
const HOLDS_TIME = "state IN ('pending', 'approved')";

/** The statements of leave (leave-store.ts), written once for both engines. */
export function leaveStatements(d: SqlDialect) {
  return {
    settingsOf: d.select(SETTINGS).from<[string]>('leave_settings WHERE guild_id = ?'),
    setChannel: d.sql<never, [string, string | null, string]>(
      `INSERT INTO leave_settings (guild_id, channel_id, time_zone) VALUES (?, ?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET channel_id = excluded.channel_id, time_zone = excluded.time_zone`,
    ),
    setManagerRole: d.sql<never, [string, string | null]>(
      `INSERT INTO leave_settings (guild_id, manager_role_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET manager_role_id = excluded.manager_role_id`,
    ),
    setRole: d.sql<never, [string, string | null, string | null]>(
      `INSERT INTO leave_settings (guild_id, role_id, role_set_by) VALUES (?, ?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET role_id = excluded.role_id, role_set_by = excluded.role_set_by`,
    ),

    // The guild's row is locked by this update until the request's transaction ends (PostgreSQL), and SQLite has
    // one writer: the overlap read by the insert below sees every request stored before it.
    raiseNumber: d.sql<never, [string]>(
      'UPDATE leave_settings SET last_number = last_number + 1 WHERE guild_id = ? AND channel_id IS NOT NULL',
    ),
    // The values are cast: PostgreSQL reads a parameter in a SELECT's list as text, whatever column it goes to.
    insertRequest: d.sql<
      never,
      [string, string, number, number, number, string, number, number, string, string, string, number, number]
    >(
      `INSERT INTO leave_request (guild_id, number, member_id, kind, starts_at, ends_at, planned_end, reason, state,
                                  asked_at, card_channel_id, work, try_at)
       SELECT guild_id, last_number, CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT),
              CAST(? AS BIGINT), CAST(? AS TEXT), 'pending', CAST(? AS BIGINT), channel_id, 'card', CAST(? AS BIGINT)
       FROM leave_settings
       WHERE guild_id = ? AND channel_id IS NOT NULL AND NOT EXISTS (
         SELECT 1 FROM leave_request r
         WHERE r.guild_id = ? AND r.member_id = ? AND r.${HOLDS_TIME} AND r.starts_at < ? AND r.ends_at > ?
       )`,
    ),
    latestOf: d
      .select(REQUEST)
      .from<[string, string]>('leave_request WHERE guild_id = ? AND member_id = ? ORDER BY number DESC LIMIT 1'),
    requestOf: d.select(REQUEST).from<[string, number]>('leave_request WHERE guild_id = ? AND number = ?'),
    // Over the member's index: their requests are a few a year.
    overlapping: d.select(REQUEST).from<[string, string, number, number]>(
      `leave_request WHERE guild_id = ? AND member_id = ? AND ${HOLDS_TIME} AND starts_at < ? AND ends_at > ?
         ORDER BY starts_at`,
    ),
    requestsOf: d
      .select(REQUEST)
      .from<[string, string, number]>(
        'leave_request WHERE guild_id = ? AND member_id = ? ORDER BY starts_at DESC, number DESC LIMIT ?',
      ),
    // Over (guild_id, ends_at): only the requests not over yet are read.
    openRequests: d
      .select(REQUEST)
      .from<[string, number, number]>(
        `leave_request WHERE guild_id = ? AND ends_at > ? AND ${HOLDS_TIME} ORDER BY starts_at, number LIMIT ?`,
      ),

    // From pending only: of two managers clicking at once, one changes the row. An approved leave is started at its
    // start; its card is there (a manager clicked it), so no card work is left.
    approve: d.sql<never, [string, number, number, string, number]>(
      `UPDATE leave_request SET state = 'approved', decided_by = ?, decided_at = ?, work = 'start', try_at = starts_at,
         failures = 0
       WHERE guild_id = ? AND number = ? AND state = 'pending'`,
    ),
    deny: d.sql<never, [string, number, string, number]>(
      `UPDATE leave_request SET state = 'denied', decided_by = ?, decided_at = ?, work = NULL, try_at = NULL,
         failures = 0
       WHERE guild_id = ? AND number = ? AND state = 'pending'`,
    ),
    cancel: d.sql<never, [number, string, number, number]>(
      `UPDATE leave_request SET state = 'cancelled', decided_at = ?, work = NULL, try_at = NULL, failures = 0
       WHERE guild_id = ? AND number = ? AND (state = 'pending' OR (state = 'approved' AND starts_at > ?))`,
    ),
    // The role given at the start (if any) is taken back now: the job's end is due at once.
    endEarly: d.sql<never, [number, number, string, number, number, number]>(
      `UPDATE leave_request SET ends_at = ?, work = 'end', try_at = ?, failures = 0
       WHERE guild_id = ? AND number = ? AND state = 'approved' AND starts_at <= ? AND ends_at > ?`,
    ),

    askCard: d.sql<never, [string, number, string, number]>(
      `UPDATE leave_request SET card_channel_id = ?, card_asked_at = COALESCE(card_asked_at, ?)
       WHERE guild_id = ? AND number = ?`,
    ),
    setCard: d.sql<never, [string, string, string, number]>(
      `UPDATE leave_request SET card_channel_id = ?, card_message_id = ?,
         work = CASE WHEN work = 'card' THEN NULL ELSE work END,
         try_at = CASE WHEN work = 'card' THEN NULL ELSE try_at END,
         failures = CASE WHEN work = 'card' THEN 0 ELSE failures END
       WHERE guild_id = ? AND number = ?`,
    ),

    // By the partial index on try_at: the rows with nothing to do are not in it.
    due: d
      .select(REQUEST)
      .from<[number, number]>('leave_request WHERE try_at IS NOT NULL AND try_at <= ? ORDER BY try_at LIMIT ?'),
    // The first entry of the partial index on try_at: when the job has something to do next.
    nextDue: d.select(NEXT).from<[]>('leave_request WHERE try_at IS NOT NULL ORDER BY try_at LIMIT 1'),
    moveOn: d.sql<never, [string | null, number | null, string, number, string]>(
      'UPDATE leave_request SET work = ?, try_at = ?, failures = 0 WHERE guild_id = ? AND number = ? AND work = ?',
    ),
    backOff: d.sql<never, [number, string, number, string]>(
      'UPDATE leave_request SET try_at = ?, failures = failures + 1 WHERE guild_id = ? AND number = ? AND work = ?',
    ),

    // Over (guild_id, ends_at): only the leave not over by the range's start is read.
    leaveIn: d.select(LEAVE).from<[string, number, number]>(
      `leave_request WHERE guild_id = ? AND ends_at > ? AND starts_at < ? AND state = 'approved'
         ORDER BY starts_at, number`,
    ),
    memberLeaveIn: d.select(LEAVE).from<[string, string, number, number]>(
      `leave_request WHERE guild_id = ? AND member_id = ? AND ends_at > ? AND starts_at < ? AND state = 'approved'
         ORDER BY starts_at, number`,
    ),

    noteRoleHolder: d.sql<never, [string, number, string, string, number | null]>(
      `INSERT INTO leave_role_holder (guild_id, number, member_id, role_id, given_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, number) DO UPDATE SET member_id = excluded.member_id, role_id = excluded.role_id,
         given_at = excluded.given_at`,
    ),
    roleHolderOf: d.select(HOLDER).from<[string, number]>('leave_role_holder WHERE guild_id = ? AND number = ?'),
    forgetRoleHolder: d.sql<never, [string, number]>('DELETE FROM leave_role_holder WHERE guild_id = ? AND number = ?'),

    setReducedQuota: d.sql<never, [string, string, number]>(
      `INSERT INTO leave_reduced_quota (guild_id, role_id, hours) VALUES (?, ?, ?)
       ON CONFLICT (guild_id, role_id) DO UPDATE SET hours = excluded.hours`,
    ),
    clearReducedQuota: d.sql<never, [string, string]>(
      'DELETE FROM leave_reduced_quota WHERE guild_id = ? AND role_id = ?',
    ),
    reducedQuotasOf: d.select(REDUCED).from<[string]>('leave_reduced_quota WHERE guild_id = ? ORDER BY role_id'),

    // By leave_request_by_time, a slice at a time.
    sweep: d.sql<never, [number, number]>(
      `DELETE FROM leave_request WHERE (guild_id, number) IN
         (SELECT guild_id, number FROM leave_request WHERE ends_at < ? ORDER BY ends_at LIMIT ?)`,
    ),
  };
}
