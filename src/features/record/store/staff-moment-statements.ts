import type { SqlDialect } from '../../../store/sql-dialect.js';
import { columns, type RowOf } from '../../../store/table-columns.js';

/* The columns and statements of the staff moments (sql-staff-moments.ts runs them), made once per store. */

const CASE = columns(
  'record_case',
  'server',
  'number',
  'at',
  'created_at',
  'type',
  'target_id',
  'target_name',
  'moderator_id',
  'moderator_name',
  'voided_at',
  'voided_by',
);
export type CaseRow = RowOf<typeof CASE>;
const CASE_COLUMNS = CASE.text
  .split(', ')
  .map((name) => `c.${name}`)
  .join(', ');

const SHIFT = columns('record_shift', 'server', 'shift_id', 'at', 'ended_at', 'member_id', 'member_name', 'roblox_id');
export type ShiftRow = RowOf<typeof SHIFT>;

/** A shift of table alias `s` covering the moment `c.at` (`?`: how long a shift covers at most). */
const COVERS = 's.at >= c.at - ? AND s.at <= c.at AND (s.ended_at IS NULL OR s.ended_at >= c.at)';

interface MomentRow extends CaseRow {
  on_shift: number | null;
  staff_on_shift: number | null;
  in_use: number | null;
  staff_since: number | null;
}

/*
 * The conduct guard runs these once or more for every case and shift merged, so none sorts what its index does not
 * order (madeAt aside, read only when a limit falls among one minute's cases): on SQLite such a sort ("USE TEMP
 * B-TREE", for an ORDER BY or a count(DISTINCT …)) cost 15 to 90 µs even for no row, several times the read itself.
 * Their few rows are put in order here instead ({@link byTime}, {@link byVoidTime}), as the SQL did; the staff on
 * shift are told as 0, 1 or 2 for more.
 */
export function momentStatements(d: SqlDialect) {
  const cases = (from: string) => d.select(CASE).from(from);
  // SQLite's planner, without statistics, takes the guild's time index for a moderator's cases (an index narrower
  // than the moderator's, its estimate near): every case of the guild in the range read for one moderator's few.
  const byModerator = `record_case${d.indexedBy('record_case_by_moderator')}`;
  const made = 'record_case WHERE guild_id = ? AND created_at IS NOT NULL';
  const madeIn = (typed: string) => cases(`${made} AND at >= ? AND at < ?${typed} ORDER BY at LIMIT ?`);
  // The time index, not the key's, which gives this order but reads every case of the guild to find one time's.
  const madeAt = (typed: string) =>
    cases(`record_case${d.indexedBy('record_case_by_time')} WHERE guild_id = ? AND created_at IS NOT NULL AND at = ?${typed}
       ORDER BY server, number LIMIT ?`);
  return {
    // One statement for the whole moment: the case's key, then its moment's reads, each by its own index, each only
    // if asked for (a CASE runs its subquery only when taken).
    caseMoment: d.sql<MomentRow, unknown[]>(
      `SELECT ${CASE_COLUMNS},
         CASE WHEN ? = 1 THEN CASE WHEN EXISTS (SELECT 1 FROM record_shift s WHERE s.guild_id = c.guild_id
           AND s.member_id = c.moderator_id AND ${COVERS}) THEN 1 ELSE 0 END END AS on_shift,
         CASE WHEN c.type = ? THEN
           (SELECT CASE WHEN count(s.member_id) = 0 THEN 0 WHEN min(s.member_id) = max(s.member_id) THEN 1 ELSE 2 END
            FROM record_shift s WHERE s.guild_id = c.guild_id AND ${COVERS}) END AS staff_on_shift,
         CASE WHEN ? = 1 THEN CASE WHEN EXISTS (SELECT 1 FROM record_shift s WHERE s.guild_id = c.guild_id
           AND s.at >= c.at - ? AND s.at <= c.at) THEN 1 ELSE 0 END END AS in_use,
         CASE WHEN ? = 1 THEN
           (SELECT min(s.at) FROM record_shift s WHERE s.guild_id = c.guild_id AND s.roblox_id = c.target_id)
         END AS staff_since
       FROM record_case c WHERE c.guild_id = ? AND c.server = ? AND c.number = ?`,
    ),
    shiftOf: d
      .select(SHIFT)
      .from<[string, string, number]>('record_shift WHERE guild_id = ? AND server = ? AND shift_id = ?'),
    casesBy: cases(
      `${byModerator} WHERE guild_id = ? AND moderator_id = ? AND at >= ? AND at < ? AND created_at IS NOT NULL`,
    ),
    burstCasesBy: cases(
      `${byModerator} WHERE guild_id = ? AND moderator_id = ? AND at >= ? AND at < ? AND created_at IS NOT NULL
         AND type IN (?, ?)`,
    ),
    voidsBy: cases('record_case WHERE guild_id = ? AND voided_by = ? AND voided_at >= ? AND voided_at < ?'),
    casesAgainst: cases(
      'record_case WHERE guild_id = ? AND target_id = ? AND at >= ? AND at < ? AND created_at IS NOT NULL',
    ),
    // In the time index's order (no sort); the cases of the last time a limit keeps are read again by madeAt.
    casesMadeIn: madeIn(''),
    typedCasesMadeIn: madeIn(' AND type = ?'),
    casesMadeAt: madeAt(''),
    typedCasesMadeAt: madeAt(' AND type = ?'),
    shiftsBegunIn: d
      .select(SHIFT)
      .from('record_shift WHERE guild_id = ? AND at >= ? AND at < ? ORDER BY at, server, shift_id'),
    memberShiftsBegunIn: d
      .select(SHIFT)
      .from('record_shift WHERE guild_id = ? AND member_id = ? AND at >= ? AND at < ? ORDER BY at, server, shift_id'),
    startBefore: d.sql<{ at: number }, unknown[]>(
      `SELECT at FROM record_shift WHERE guild_id = ? AND at < ? AND at >= ? AND NOT (server = ? AND shift_id = ?)
       ORDER BY at DESC LIMIT 1`,
    ),
    firstClockIn: d.sql<{ at: number | null }, [string, string]>(
      'SELECT min(at) AS at FROM record_shift WHERE guild_id = ? AND roblox_id = ?',
    ),
  };
}
