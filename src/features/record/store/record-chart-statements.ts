import type { Sql, SqlDialect } from '../../../store/sql-dialect.js';
import { CASE_MADE } from './record-query-statements.js';

/** A UTC day (its midnight, ms since the epoch) and the seconds on shift of the shifts that began on it. */
export interface DayRow {
  day: number;
  seconds: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const QUARTER_MS = 15 * 60 * 1000;

/** The statements the record's charts read; made once per dialect. */
export interface RecordChartStatements {
  /** A member's shifts that began in a range, per UTC day they began on (days without one left out), by day. */
  shiftDays: Sql<DayRow, [string, string, number, number]>;
  /**
   * The guild's seconds on shift, cases and modcalls per quarter hour of a range (quarters with none left out):
   * every time zone's midnight is on a quarter hour, so the caller adds them up into the days of any zone.
   */
  guildQuarters: Sql<GuildQuarterRow, [string, number, number, string, number, number, string, number, number]>;
}

/** A quarter hour of a guild's record: seconds on shift begun in it, cases made, modcalls received (calls). */
export interface GuildQuarterRow {
  quarter: number;
  shift_seconds: number;
  cases: number;
  modcalls: number;
}

const made = new WeakMap<SqlDialect, RecordChartStatements>();

/**
 * The chart statements in the dialect. `at` (when a shift began, in ms) divided by a day's (or a quarter hour's)
 * ms is an integer division on both engines (BIGINT in PostgreSQL, INTEGER in SQLite): its number since the
 * epoch, in UTC.
 * sum() of a BIGINT is a NUMERIC in PostgreSQL: cast back to the integer both engines return.
 */
export function recordChartStatements(d: SqlDialect): RecordChartStatements {
  let statements = made.get(d);
  if (!statements) {
    statements = {
      shiftDays: d.sql<DayRow, [string, string, number, number]>(
        `SELECT (at / ${DAY_MS}) * ${DAY_MS} AS day, CAST(COALESCE(sum(seconds), 0) AS BIGINT) AS seconds
         FROM record_shift WHERE guild_id = ? AND member_id = ? AND at >= ? AND at < ?
         GROUP BY at / ${DAY_MS} ORDER BY day`,
      ),
      // Each table by its (guild_id, at) index, then summed per quarter hour (at most 672 rows a week).
      guildQuarters: d.sql(
        `SELECT quarter, CAST(sum(shift_seconds) AS BIGINT) AS shift_seconds, CAST(sum(cases) AS BIGINT) AS cases,
                CAST(sum(modcalls) AS BIGINT) AS modcalls
         FROM (
           SELECT (at / ${QUARTER_MS}) * ${QUARTER_MS} AS quarter, COALESCE(seconds, 0) AS shift_seconds, 0 AS cases,
                  0 AS modcalls
             FROM record_shift WHERE guild_id = ? AND at >= ? AND at < ?
           UNION ALL
           SELECT (at / ${QUARTER_MS}) * ${QUARTER_MS}, 0, 1, 0 FROM record_case
             WHERE guild_id = ? AND at >= ? AND at < ? AND ${CASE_MADE}
           UNION ALL
           SELECT (at / ${QUARTER_MS}) * ${QUARTER_MS}, 0, 0, 1 FROM record_modcall
             WHERE guild_id = ? AND at >= ? AND at < ?
         ) AS quarters
         GROUP BY quarter ORDER BY quarter`,
      ),
    };
    made.set(d, statements);
  }
  return statements;
}
