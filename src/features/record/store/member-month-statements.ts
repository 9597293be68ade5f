import type { Sql, SqlDialect } from '../../../store/sql-dialect.js';
import { CARD_ROW } from './record-query-statements.js';

const DAY_S = 24 * 60 * 60;
const DAY_MS = DAY_S * 1000;

/** A UTC month of one member's record (its first moment, ms since the epoch) and what they did in it. */
export interface MemberMonthRow {
  month: number;
  count: number;
  seconds: number;
}

/** A modcall card a member claimed: when its first call came, and how long until their claim. */
export interface MemberClaimRow {
  at: number;
  to_claim: number;
}

/** The statements /staff history's monthly figures read (memberMonths); made once per dialect. */
export interface MemberMonthStatements {
  /** The member's shifts begun in a range, per UTC month: how many, and their seconds (running ones count 0). */
  shiftMonths: Sql<MemberMonthRow, [string, string, number, number]>;
  /** The cases the member made in a range and that stand (not voided), per UTC month. */
  caseMonths: Sql<MemberMonthRow, [string, string, number, number]>;
  /** The modcall cards the member claimed whose first call came in a range. */
  claims: Sql<MemberClaimRow, [string, string, number, number]>;
}

const made = new WeakMap<SqlDialect, MemberMonthStatements>();

/**
 * The months of a member's days: `days` is a grouping by UTC day (`day`, days since the epoch) with a `count` and
 * `seconds`; each month's first moment in ms. A month is computed once per day, not per row: a member's five years
 * are a few thousand rows of cases (an integer division and a hash each) but under two thousand days.
 */
function byMonth(d: SqlDialect, days: string): string {
  return `SELECT ${d.utcMonthStart(`day * ${DAY_S}`)} * 1000 AS month, CAST(sum(count) AS BIGINT) AS count,
                 CAST(sum(seconds) AS BIGINT) AS seconds
          FROM (${days}) AS days GROUP BY month`;
}

/**
 * The monthly figures' statements in the dialect, each over an index by member (record_shift_by_member,
 * record_case_by_moderator, record_modcall_by_claimer; the first two hold every column their read needs:
 * migrations/0006-member-history-indexes.ts; on PostgreSQL the cases' is record_case_standing_by_day, in the order
 * of their days: 0009-standing-cases-by-day.ts): a member's years are read as a few thousand index entries, never
 * the guild's rows. Shifts and cases are added up into UTC months by the database, so some sixty rows come back
 * each, not a row per day (reading 2,600 day rows was about a third of the CPU the process spent on a history on
 * PostgreSQL). Claims come back one a row: the caller takes each month's lower median of them. The cases' day is
 * written `at / 86400000` as the index by day has it. sum() of a BIGINT is a NUMERIC in PostgreSQL: cast back to
 * the integer both engines return.
 */
export function memberMonthStatements(d: SqlDialect): MemberMonthStatements {
  let statements = made.get(d);
  if (!statements) {
    statements = {
      shiftMonths: d.sql(
        byMonth(
          d,
          `SELECT at / ${DAY_MS} AS day, count(*) AS count, COALESCE(sum(seconds), 0) AS seconds
           FROM record_shift WHERE guild_id = ? AND member_id = ? AND at >= ? AND at < ?
           GROUP BY at / ${DAY_MS}`,
        ),
      ),
      // A case counts where it was made and stands: a voided one, or a case.voided whose case.created never came, not.
      caseMonths: d.sql(
        byMonth(
          d,
          `SELECT at / ${DAY_MS} AS day, count(*) AS count, 0 AS seconds
           FROM record_case WHERE guild_id = ? AND moderator_id = ? AND at >= ? AND at < ? AND voided_at IS NULL
           GROUP BY at / ${DAY_MS}`,
        ),
      ),
      // A card's claim counts once, on its first call's row (CARD_ROW).
      claims: d.sql(
        `SELECT at, claimed_at - at AS to_claim
         FROM record_modcall
         WHERE guild_id = ? AND claimed_by = ? AND at >= ? AND at < ? AND claimed_by IS NOT NULL
           AND claimed_at IS NOT NULL AND ${CARD_ROW}`,
      ),
    };
    made.set(d, statements);
  }
  return statements;
}
