import type { Sql, SqlDialect } from '../../../store/sql-dialect.js';
import { columns, type RowOf } from '../../../store/table-columns.js';
import type { CaseTypeCount } from './community-record.js';
import type { Board } from './record-queries.js';

/** What a lookup shows of a case. */
const CASE = columns(
  'record_case',
  'server',
  'number',
  'at',
  'type',
  'target_id',
  'target_name',
  'moderator_id',
  'moderator_name',
  'reason',
  'voided_at',
  'voided_by',
);
export type CaseRow = RowOf<typeof CASE>;

/**
 * A row of record_modcall that stands for its card: its first call, or a call no card named (migrations/0005-modcall-cards.ts,
 * modcallCardSchema). A card's claim, resolution and their times are counted on this row only.
 */
export const CARD_ROW = '(card_at IS NULL OR card_at = at)';

/**
 * A row of record_case whose case.created reached the record, or that was never voided: a case.voided alone (its
 * case.created not merged yet) is no case of any figure until its case.created arrives, and then it counts once, in
 * the period it was made, as voided.
 */
export const CASE_MADE = '(created_at IS NOT NULL OR voided_at IS NULL)';

/**
 * A call and how its card was answered: `first_call` 1 on its card's row ({@link CARD_ROW}), where the times from
 * the card's first call to its claim and resolution are (null: not that, or not by the member asked about).
 */
interface ModcallTimesRow {
  first_call: number;
  to_claim: number | null;
  to_resolve: number | null;
}

/** One member's line of a leaderboard, as the statements read it. */
export interface StandingRow {
  member_id: string;
  name: string | null;
  value: number;
}

const PLAYER = columns('record_player', 'player_id', 'name');
/**
 * What the community record answers (record-queries.ts), written once for both engines: lookups of a player,
 * a member's statistics and the leaderboards, each over the guild's indexes (bench/record.ts checks the plans).
 */
export function recordQueryStatements(d: SqlDialect) {
  return {
    // Lookups.
    casesOf: d
      .select(CASE)
      .from<[string, string, number, number]>(
        'record_case WHERE guild_id = ? AND target_id = ? ORDER BY at DESC, number DESC LIMIT ? OFFSET ?',
      ),
    caseTotals: d.sql<CaseTypeCount, [string, string]>(
      `SELECT COALESCE(type, 'unknown') AS type, count(*) AS count,
              count(CASE WHEN voided_at IS NOT NULL THEN 1 END) AS voided
       FROM record_case WHERE guild_id = ? AND target_id = ?
       GROUP BY COALESCE(type, 'unknown') ORDER BY count(*) DESC, COALESCE(type, 'unknown')`,
    ),
    playersFrom: d
      .select(PLAYER)
      .from<[string, string, string, number]>(
        'record_player WHERE guild_id = ? AND name_key >= ? AND name_key < ? ORDER BY name_key, player_id LIMIT ?',
      ),
    playerById: d.select(PLAYER).from<[string, string]>('record_player WHERE guild_id = ? AND player_id = ?'),
    // Without it SQLite's planner walks the guild's players newest first (record_player_by_time, for the ORDER BY)
    // until one has the name: a read of up to every player of the guild (bench/record.ts).
    playerByName: d
      .select(PLAYER)
      .from<[string, string]>(
        `record_player${d.indexedBy('record_player_by_name')} WHERE guild_id = ? AND name_key = ? ORDER BY at DESC LIMIT 1`,
      ),
    earlierCases: d.sql<{ type: string; count: number; last_at: number }, [string, string, number]>(
      `SELECT COALESCE(type, 'unknown') AS type, count(*) AS count, max(at) AS last_at
       FROM record_case WHERE guild_id = ? AND target_id = ? AND at < ? AND voided_at IS NULL
       GROUP BY COALESCE(type, 'unknown') ORDER BY count(*) DESC, COALESCE(type, 'unknown')`,
    ),

    // A member's statistics and the leaderboards, over a range of `at` (the guild's time indexes).
    staffCases: d.sql<CaseTypeCount, [string, string, number, number]>(
      `SELECT COALESCE(type, 'unknown') AS type, count(*) AS count,
              count(CASE WHEN voided_at IS NOT NULL THEN 1 END) AS voided
       FROM record_case WHERE guild_id = ? AND moderator_id = ? AND at >= ? AND at < ? AND ${CASE_MADE}
       GROUP BY COALESCE(type, 'unknown') ORDER BY count(*) DESC, COALESCE(type, 'unknown')`,
    ),
    guildCases: d.sql<CaseTypeCount, [string, number, number]>(
      `SELECT COALESCE(type, 'unknown') AS type, count(*) AS count,
              count(CASE WHEN voided_at IS NOT NULL THEN 1 END) AS voided
       FROM record_case WHERE guild_id = ? AND at >= ? AND at < ? AND ${CASE_MADE}
       GROUP BY COALESCE(type, 'unknown') ORDER BY count(*) DESC, COALESCE(type, 'unknown')`,
    ),
    // A session whose end came before its start: its `at` is when the end was sent, not when it began, and it is
    // in no period until its start comes (then `at` is that).
    sessionTotals: d.sql<{ sessions: number; seconds: number; peak_players: number | null }, [string, number, number]>(
      `SELECT count(*) AS sessions, CAST(COALESCE(sum(ended_at - started_at), 0) AS BIGINT) / 1000 AS seconds,
              max(peak_players) AS peak_players
       FROM record_session WHERE guild_id = ? AND at >= ? AND at < ? AND started_at IS NOT NULL`,
    ),
    // sum() of a BIGINT is a NUMERIC in PostgreSQL (a string to pg): cast back to the integer both engines return.
    shiftTotals: d.sql<{ count: number; seconds: number }, [string, string, number, number]>(
      `SELECT count(*) AS count, CAST(COALESCE(sum(seconds), 0) AS BIGINT) AS seconds
       FROM record_shift WHERE guild_id = ? AND member_id = ? AND at >= ? AND at < ?`,
    ),
    // Every call of the range (each counts as a call); a card's claim and times on its first call's row only.
    modcallTimes: d.sql<ModcallTimesRow & { claimed_by: string | null }, [string, number, number]>(
      `SELECT CASE WHEN ${CARD_ROW} THEN claimed_by END AS claimed_by,
              CASE WHEN ${CARD_ROW} THEN 1 ELSE 0 END AS first_call,
              CASE WHEN ${CARD_ROW} THEN claimed_at - at END AS to_claim,
              CASE WHEN ${CARD_ROW} THEN resolved_at - at END AS to_resolve
       FROM record_modcall WHERE guild_id = ? AND at >= ? AND at < ?`,
    ),
    // The calls of the cards the member claimed or resolved (every call of a card carries its claim).
    memberModcallTimes: d.sql<ModcallTimesRow, [string, string, string, number, number, string, string]>(
      `SELECT CASE WHEN ${CARD_ROW} THEN 1 ELSE 0 END AS first_call,
              CASE WHEN ${CARD_ROW} AND claimed_by = ? THEN claimed_at - at END AS to_claim,
              CASE WHEN ${CARD_ROW} AND resolved_by = ? THEN resolved_at - at END AS to_resolve
       FROM record_modcall WHERE guild_id = ? AND at >= ? AND at < ? AND (claimed_by = ? OR resolved_by = ?)`,
    ),
    // Over the partial index record_shift_open (migrations/0003-open-shifts-index.ts): only the shifts with no end are read.
    openShifts: d.sql<
      { server: string; shift_id: number; member_id: string | null; member_name: string | null; started_at: number },
      [string]
    >(
      `SELECT server, shift_id, member_id, member_name, COALESCE(started_at, at) AS started_at
       FROM record_shift WHERE guild_id = ? AND ended_at IS NULL
       ORDER BY COALESCE(started_at, at), server, shift_id`,
    ),
    // Over the partial index record_session_running (migrations/0004-running-sessions-index.ts): only the sessions with a start and no end.
    runningSessions: d.sql<{ server: string; session_id: number; name: string | null; started_at: number }, [string]>(
      `SELECT server, session_id, name, started_at
       FROM record_session WHERE guild_id = ? AND ended_at IS NULL AND started_at IS NOT NULL
       ORDER BY started_at, server, session_id`,
    ),
    membersOffShift: d.sql<{ member_id: string }, [string, number, number]>(
      `SELECT DISTINCT member_id FROM record_shift
       WHERE guild_id = ? AND at >= ? AND ended_at >= ? AND member_id IS NOT NULL ORDER BY member_id`,
    ),
    leaderboard: {
      shifts: d.sql<StandingRow, [string, number, number]>(
        `SELECT member_id AS member_id, max(member_name) AS name, CAST(COALESCE(sum(seconds), 0) AS BIGINT) AS value
         FROM record_shift WHERE guild_id = ? AND at >= ? AND at < ? AND member_id IS NOT NULL
         GROUP BY member_id ORDER BY value DESC, member_id`,
      ),
      cases: d.sql<StandingRow, [string, number, number]>(
        `SELECT moderator_id AS member_id, max(moderator_name) AS name, count(*) AS value
         FROM record_case WHERE guild_id = ? AND at >= ? AND at < ? AND moderator_id IS NOT NULL AND voided_at IS NULL
         GROUP BY moderator_id ORDER BY value DESC, member_id`,
      ),
      modcalls: d.sql<StandingRow, [string, number, number]>(
        `SELECT claimed_by AS member_id, NULL AS name, count(*) AS value
         FROM record_modcall WHERE guild_id = ? AND at >= ? AND at < ? AND claimed_by IS NOT NULL AND ${CARD_ROW}
         GROUP BY claimed_by ORDER BY value DESC, member_id`,
      ),
    } satisfies Record<Board, Sql<StandingRow, [string, number, number]>>,

    // The guild's activity of a range, row by row (/staff activity's flags): over the guild's time indexes.
    activityShifts: d.sql<
      { member_id: string; started_at: number; ended_at: number | null; seconds: number | null },
      [string, number, number]
    >(
      `SELECT member_id, COALESCE(started_at, at) AS started_at, ended_at, seconds
       FROM record_shift WHERE guild_id = ? AND at >= ? AND at < ? AND member_id IS NOT NULL
       ORDER BY member_id, COALESCE(started_at, at)`,
    ),
    activityCases: d.sql<{ member_id: string; at: number }, [string, number, number]>(
      `SELECT moderator_id AS member_id, at
       FROM record_case WHERE guild_id = ? AND at >= ? AND at < ? AND moderator_id IS NOT NULL AND ${CASE_MADE}
       ORDER BY moderator_id, at`,
    ),
    activityCards: d.sql<
      { at: number; claimed_by: string | null; claimed_at: number | null },
      [string, number, number]
    >(
      `SELECT at, claimed_by, claimed_at
       FROM record_modcall WHERE guild_id = ? AND at >= ? AND at < ? AND ${CARD_ROW}
       ORDER BY at`,
    ),
  };
}
