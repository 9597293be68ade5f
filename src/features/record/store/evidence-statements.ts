import type { SqlDialect } from '../../../store/sql-dialect.js';
import { columns } from '../../../store/table-columns.js';

/** What an evidence pack shows of a case: a lookup's columns, when its case.created told it was made, its evidence. */
export const EVIDENCE_CASE = columns(
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
  'created_at',
  'voided_at',
  'voided_by',
  'evidence',
);

const SHIFT = columns('record_shift', 'server', 'shift_id', 'member_id', 'member_name', 'at', 'ended_at');

const SESSION = columns(
  'record_session',
  'server',
  'session_id',
  'name',
  'started_by_id',
  'started_by_name',
  'started_at',
  'ended_at',
  'peak_players',
);

/** A card of the player's calls before the case: its first call in the span, its calls there, how it was answered. */
export interface EvidenceModcallRow {
  at: number;
  calls: number;
  caller_name: string | null;
  claimed_by: string | null;
  claimed_at: number | null;
  resolved_by: string | null;
  resolved_at: number | null;
}

/**
 * What /case evidence reads of the record (case-evidence.ts), written once for both engines, each read over one of
 * the guild's indexes within a bounded span of time (bench/oversight-evidence.ts checks them on a guild of
 * 1,000,000 cases): the case by its number (record_case_by_number), the player's modcalls on the game server before
 * it (the primary key), the shifts and session around it (the guild's time indexes), the moderator's latest shift
 * (record_shift_by_member), the player's earlier cases (record_case_by_target).
 */
export function evidenceStatements(d: SqlDialect) {
  return {
    // Every game server's case of that number (each server counts its own), a few: more are named, not shown.
    // SQLite, without statistics, would walk the guild's whole primary key for its order by server.
    casesNumbered: d
      .select(EVIDENCE_CASE)
      .from<[string, number, number]>(
        `record_case${d.indexedBy('record_case_by_number')} WHERE guild_id = ? AND number = ? ORDER BY server LIMIT ?`,
      ),
    // The player's calls on the server from `from` to the case's moment, both included, by the primary key: a card
    // each (its calls gathered, migrations/0005-modcall-cards.ts), by its first call in the span. Every call of a card
    // carries its claim and resolution, or none yet: max() takes them.
    modcalls: d.sql<EvidenceModcallRow, [string, string, string, number, number, number]>(
      `SELECT min(at) AS at, count(*) AS calls, max(caller_name) AS caller_name, max(claimed_by) AS claimed_by,
              max(claimed_at) AS claimed_at, max(resolved_by) AS resolved_by, max(resolved_at) AS resolved_at
       FROM record_modcall WHERE guild_id = ? AND server = ? AND caller_id = ? AND at >= ? AND at <= ?
       GROUP BY COALESCE(card_at, at) ORDER BY min(at) LIMIT ?`,
    ),
    // A shift's `at` is its start: begun in the span up to the moment, not ended before it (any game server).
    shiftsAt: d
      .select(SHIFT)
      .from<[string, number, number, number, number]>(
        'record_shift WHERE guild_id = ? AND at >= ? AND at <= ? AND (ended_at IS NULL OR ended_at >= ?) ORDER BY at, server, shift_id LIMIT ?',
      ),
    // The moderator's latest shift begun by the moment, whatever its span: when they were last on shift.
    lastShiftOf: d
      .select(SHIFT)
      .from<[string, string, number]>(
        'record_shift WHERE guild_id = ? AND member_id = ? AND at <= ? ORDER BY at DESC, server DESC, shift_id DESC LIMIT 1',
      ),
    // The server's session running at the moment: begun in the span before it, not ended before it.
    sessionAt: d
      .select(SESSION)
      .from<[string, string, number, number, number]>(
        'record_session WHERE guild_id = ? AND server = ? AND at >= ? AND at <= ? AND started_at IS NOT NULL AND (ended_at IS NULL OR ended_at >= ?) ORDER BY at DESC, session_id DESC LIMIT 1',
      ),
    // The player's cases made before this one, newest first, voided ones too (shown as voided).
    casesBefore: d
      .select(EVIDENCE_CASE)
      .from<[string, string, number, number]>(
        'record_case WHERE guild_id = ? AND target_id = ? AND at < ? ORDER BY at DESC, number DESC, server DESC LIMIT ?',
      ),
  };
}

export type EvidenceStatements = ReturnType<typeof evidenceStatements>;
