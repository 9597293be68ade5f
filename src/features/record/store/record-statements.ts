import type { Sql, SqlDialect } from '../../../store/sql-dialect.js';
import { columns, type RowOf } from '../../../store/table-columns.js';
import { DEFAULT_RECORD_RETENTION_DAYS, RECORD_TABLE_KEYS } from './community-record.js';
import { recordQueryStatements } from './record-query-statements.js';

/** A stored delivery the community record's writer has not read yet (src/store/migrations/0007-unrecorded-mark.ts). */
const UNRECORDED = columns('delivery', 'seq', 'guild_id', 'server', 'event', 'delivery_id', 'raw_body');
export type UnrecordedRow = RowOf<typeof UNRECORDED>;

const SETTINGS = columns('record_guild', 'retention_days', 'staff_role_id');
const GUILD_SETTINGS = columns('record_guild', 'guild_id', 'retention_days');
/** A guild due for the retention sweep, and whether the sweep set it aside before (1) or not (0). */
export type DueGuildRow = RowOf<typeof GUILD_SETTINGS> & { set_aside: number };

/**
 * A guild's retention in ms, in SQL (a BIGINT: days times ms overflow a 32-bit integer in PostgreSQL), for the
 * statements that keep `record_guild.due_at` (src/store/migrations/0007-unrecorded-mark.ts).
 */
const RETENTION_MS = `COALESCE(record_guild.retention_days, ${DEFAULT_RECORD_RETENTION_DAYS}) * CAST(86400000 AS BIGINT)`;
const DEFAULT_RETENTION_MS = `CAST(${DEFAULT_RECORD_RETENTION_DAYS * 86_400_000} AS BIGINT)`;

/** What both case events tell: case.created's word stands; a case.voided only fills what is not known yet. */
const CASE_TOLD = ['type', 'target_id', 'target_name', 'moderator_id', 'moderator_name', 'reason', 'evidence'];

function createdFirst(column: string): string {
  return `${column} = CASE WHEN excluded.created_at IS NOT NULL THEN COALESCE(excluded.${column}, record_case.${column})
           ELSE COALESCE(record_case.${column}, excluded.${column}) END`;
}

/** The tables a guild's record is in that have a time (`at`, when each row began), with their key. */
export const RECORD_TABLES = (
  ['record_case', 'record_shift', 'record_session', 'record_modcall', 'record_player'] as const
).map((table) => ({ table, key: RECORD_TABLE_KEYS[table].join(', ') }));

/**
 * The community record's statements, written once for both engines (see queue-statements.ts). Each merge is one
 * upsert: a field the update leaves out (NULL) keeps what an earlier delivery told, whichever came first; `at`
 * takes the thing's start once a delivery tells it.
 */
export function recordStatements(d: SqlDialect) {
  return {
    // Read without a lock: a lane's statements on the same rows never wait for the writer (see planRecording).
    // Those waiting (1) only, by delivery_recording: one set aside (2) waits for its next try (src/store/migrations/0008-set-aside.ts).
    unrecorded: d.sql<UnrecordedRow, [number]>(
      `SELECT ${UNRECORDED.text} FROM delivery WHERE unrecorded = 1
       ORDER BY seq LIMIT ?`,
    ),
    // The deliveries set aside whose next try is due, by their seqs (those still stored and not recorded).
    unrecordedOf: d.sql<UnrecordedRow, [unknown]>(
      `SELECT ${UNRECORDED.text} FROM delivery WHERE ${d.inList('seq')} AND unrecorded IS NOT NULL`,
    ),
    // Set aside: left out of the writer's passes (not 1), its body kept (a mark, so not NULL), until its next try.
    setDeliveryAside: d.sql<never, [number]>(
      'UPDATE delivery SET unrecorded = 2 WHERE seq = ? AND unrecorded IS NOT NULL',
    ),
    // The deliveries a pass read, still stored as its merges commit (record-merge.ts): forgetting their guild
    // deletes them first, and waits for the merges on PostgreSQL.
    stillStored: d.sql<{ seq: number }, [unknown]>(`SELECT seq FROM delivery WHERE ${d.inList('seq')}${d.forKeyShare}`),
    // The oldest delivery the writer has not read yet (/healthz's record lag), first by the partial index; one set
    // aside is not waiting for the writer (/status and /metrics show it).
    oldestUnrecorded: d
      .select(columns('delivery', 'received_at'))
      .from<[]>('delivery WHERE unrecorded = 1 ORDER BY seq LIMIT 1'),
    // Read: the body stays (to be posted, or for the replay window: the kernel's sweepBodies drops it after).
    markRecorded: d.sql(`UPDATE delivery SET unrecorded = NULL WHERE ${d.inList('seq')}`),
    // The guild has a record, its oldest row merged now at the time given: it is due for the sweep then plus its
    // retention, or earlier if it already was.
    // (A new guild has the default retention; `excluded.due_at` is that time with it, and a guild's own retention
    // is the difference from the default added.)
    noteGuild: d.sql<never, [string, number]>(
      `INSERT INTO record_guild (guild_id, due_at) VALUES (?, ? + ${DEFAULT_RETENTION_MS})
       ON CONFLICT (guild_id) DO UPDATE SET due_at = CASE
         WHEN record_guild.due_at IS NOT NULL
              AND record_guild.due_at <= excluded.due_at - ${DEFAULT_RETENTION_MS} + ${RETENTION_MS}
           THEN record_guild.due_at
         ELSE excluded.due_at - ${DEFAULT_RETENTION_MS} + ${RETENTION_MS} END`,
    ),
    mergeCase: d.sql(
      `INSERT INTO record_case (guild_id, server, number, at, type, target_id, target_name, moderator_id,
                                moderator_name, reason, created_at, voided_at, voided_by, evidence)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, server, number) DO UPDATE SET
         at = CASE WHEN excluded.created_at IS NOT NULL THEN excluded.created_at ELSE record_case.at END,
         ${CASE_TOLD.map(createdFirst).join(',\n         ')},
         created_at = COALESCE(excluded.created_at, record_case.created_at),
         voided_at = COALESCE(excluded.voided_at, record_case.voided_at),
         voided_by = COALESCE(excluded.voided_by, record_case.voided_by)`,
    ),
    // The latest name a player was seen with is the one a lookup by name finds.
    mergePlayer: d.sql(
      `INSERT INTO record_player (guild_id, player_id, name, name_key, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, player_id) DO UPDATE SET
         name = CASE WHEN excluded.at >= record_player.at THEN excluded.name ELSE record_player.name END,
         name_key = CASE WHEN excluded.at >= record_player.at THEN excluded.name_key ELSE record_player.name_key END,
         at = CASE WHEN excluded.at >= record_player.at THEN excluded.at ELSE record_player.at END`,
    ),
    mergeShift: d.sql(
      `INSERT INTO record_shift (guild_id, server, shift_id, at, member_id, member_name, roblox_id, started_at,
                                 ended_at, seconds)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, server, shift_id) DO UPDATE SET
         at = CASE WHEN excluded.started_at IS NOT NULL THEN excluded.started_at ELSE record_shift.at END,
         member_id = COALESCE(excluded.member_id, record_shift.member_id),
         member_name = COALESCE(excluded.member_name, record_shift.member_name),
         roblox_id = COALESCE(excluded.roblox_id, record_shift.roblox_id),
         started_at = COALESCE(excluded.started_at, record_shift.started_at),
         ended_at = COALESCE(excluded.ended_at, record_shift.ended_at),
         seconds = COALESCE(excluded.seconds, record_shift.seconds)`,
    ),
    mergeSession: d.sql(
      `INSERT INTO record_session (guild_id, server, session_id, at, name, started_by_id, started_by_name,
                                   started_at, ended_at, peak_players, joins, cases)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, server, session_id) DO UPDATE SET
         at = CASE WHEN excluded.started_at IS NOT NULL THEN excluded.started_at ELSE record_session.at END,
         name = COALESCE(excluded.name, record_session.name),
         started_by_id = COALESCE(excluded.started_by_id, record_session.started_by_id),
         started_by_name = COALESCE(excluded.started_by_name, record_session.started_by_name),
         started_at = COALESCE(excluded.started_at, record_session.started_at),
         ended_at = COALESCE(excluded.ended_at, record_session.ended_at),
         peak_players = COALESCE(excluded.peak_players, record_session.peak_players),
         joins = COALESCE(excluded.joins, record_session.joins),
         cases = COALESCE(excluded.cases, record_session.cases)`,
    ),
    // From the writer (a call) or from the modcall's card (its first call, claimed, resolved): the first claim and
    // resolution stand; the card's earliest call told names it (a call that came late to the card may be earlier
    // than the one it was named by), so every row of the card names the same first call and the card counts once.
    mergeModcall: d.sql(
      `INSERT INTO record_modcall (guild_id, server, caller_id, at, caller_name, claimed_by, claimed_at, resolved_by,
                                   resolved_at, card_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (guild_id, server, caller_id, at) DO UPDATE SET
         caller_name = COALESCE(excluded.caller_name, record_modcall.caller_name),
         claimed_by = COALESCE(record_modcall.claimed_by, excluded.claimed_by),
         claimed_at = COALESCE(record_modcall.claimed_at, excluded.claimed_at),
         resolved_by = COALESCE(record_modcall.resolved_by, excluded.resolved_by),
         resolved_at = COALESCE(record_modcall.resolved_at, excluded.resolved_at),
         card_at = CASE WHEN excluded.card_at < record_modcall.card_at THEN excluded.card_at
                        ELSE COALESCE(record_modcall.card_at, excluded.card_at) END`,
    ),

    // Retention.
    settingsOf: d.select(SETTINGS).from<[string]>('record_guild WHERE guild_id = ?'),
    setStaffRole: d.sql<never, [string, string | null]>(
      `INSERT INTO record_guild (guild_id, staff_role_id) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET staff_role_id = excluded.staff_role_id`,
    ),
    // A new retention: a guild with a record is due at once, and the sweep sets when it is due next.
    setRetention: d.sql<never, [string, number]>(
      `INSERT INTO record_guild (guild_id, retention_days) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET retention_days = excluded.retention_days,
         due_at = CASE WHEN record_guild.due_at IS NULL THEN NULL ELSE 0 END`,
    ),
    // The guilds whose oldest row is past their retention, the longest due first, by record_guild_due; whether
    // the sweep set each aside before (by set_aside's key), so it is cleared once swept.
    dueGuilds: d.sql<DueGuildRow, [number, number]>(
      `SELECT ${GUILD_SETTINGS.text}, (SELECT count(*) FROM set_aside
         WHERE set_aside.job = 'record-sweep' AND set_aside.item = record_guild.guild_id) AS set_aside
       FROM record_guild WHERE due_at < ? ORDER BY due_at LIMIT ?`,
    ),
    // A guild set aside is due at its next try, not before (set-aside-statements.ts makes it due at once).
    postponeSweep: d.sql<never, [number, string]>('UPDATE record_guild SET due_at = ? WHERE guild_id = ?'),
    // After the sweep: due again when its oldest row left (each table's by (guild_id, at)) is past the retention.
    settleDue: d.sql<never, [string, ...string[]]>(
      `UPDATE record_guild SET due_at = (
         SELECT MIN(at) FROM (${RECORD_TABLES.map(({ table }) => `SELECT MIN(at) AS at FROM ${table} WHERE guild_id = ?`).join(' UNION ALL ')}) AS oldest
       ) + ${RETENTION_MS}
       WHERE guild_id = ?`,
    ),
    // One slice of one guild's oldest rows of one table, by the (guild_id, at) index.
    sweepSlice: Object.fromEntries(
      RECORD_TABLES.map(({ table, key }) => [
        table,
        d.sql<never, [string, number, number]>(
          `DELETE FROM ${table} WHERE (${key}) IN
             (SELECT ${key} FROM ${table} WHERE guild_id = ? AND at < ? ORDER BY at LIMIT ?)`,
        ),
      ]),
    ) as Record<(typeof RECORD_TABLES)[number]['table'], Sql<never, [string, number, number]>>,

    ...recordQueryStatements(d),
  };
}

export type RecordStatements = ReturnType<typeof recordStatements>;
