import type { SqlDialect } from '../../../store/sql-dialect.js';
import { CASE_MADE } from './record-query-statements.js';

/**
 * A shift begun longer ago than this before a session is not read as overlapping it: the duty board shows such a
 * shift apart as never ended (duty's SHIFT_NEVER_ENDED_AFTER_MS is the same 16 h), and the bound keeps the read on the
 * guild's time index.
 */
export const SHIFT_LOOKBACK_MS = 16 * 60 * 60 * 1000;

/** What a session's thread reads of the record (session-facts.ts), over the guild's time indexes. */
export function sessionStatements(d: SqlDialect) {
  return {
    session: d.sql<
      {
        name: string | null;
        started_at: number | null;
        ended_at: number | null;
        peak_players: number | null;
        joins: number | null;
      },
      [string, string, number]
    >(
      `SELECT name, started_at, ended_at, peak_players, joins
       FROM record_session WHERE guild_id = ? AND server = ? AND session_id = ?`,
    ),
    cases: d.sql<
      {
        at: number;
        number: number;
        type: string | null;
        target_name: string | null;
        moderator_id: string | null;
        moderator_name: string | null;
        voided_at: number | null;
      },
      [string, string, number, number, number]
    >(
      `SELECT at, number, type, target_name, moderator_id, moderator_name, voided_at
       FROM record_case WHERE guild_id = ? AND server = ? AND at >= ? AND at < ? AND ${CASE_MADE}
       ORDER BY at, number LIMIT ?`,
    ),
    // A card each (its calls within the session gathered, migrations/0005-modcall-cards.ts), by its first call
    // within the session. Every call of a card carries its claim and resolution, or none yet: max() takes them.
    modcalls: d.sql<
      {
        at: number;
        called_at: number;
        calls: number;
        caller_name: string | null;
        claimed_by: string | null;
        claimed_at: number | null;
        resolved_at: number | null;
      },
      [string, string, number, number, number]
    >(
      `SELECT min(at) AS at, COALESCE(card_at, at) AS called_at, count(*) AS calls, max(caller_name) AS caller_name,
              max(claimed_by) AS claimed_by, max(claimed_at) AS claimed_at, max(resolved_at) AS resolved_at
       FROM record_modcall WHERE guild_id = ? AND server = ? AND at >= ? AND at < ?
       GROUP BY caller_id, COALESCE(card_at, at)
       ORDER BY min(at), caller_id LIMIT ?`,
    ),
    // A shift's `at` is its start: those begun up to 16 h before the session and before its end, not ended before
    // it began.
    shifts: d.sql<
      {
        shift_id: number;
        member_id: string | null;
        member_name: string | null;
        started_at: number;
        ended_at: number | null;
      },
      [string, string, number, number, number, number]
    >(
      `SELECT shift_id, member_id, member_name, at AS started_at, ended_at
       FROM record_shift WHERE guild_id = ? AND server = ? AND at >= ? AND at < ?
         AND (ended_at IS NULL OR ended_at >= ?)
       ORDER BY at, shift_id LIMIT ?`,
    ),
  };
}
