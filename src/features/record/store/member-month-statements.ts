import type { Sql, SqlDialect } from '../../../store/sql-dialect.js';
import { CARD_ROW } from './record-query-statements.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A UTC day of one member's record (its midnight, ms since the epoch) and what they did on it. */
export interface MemberDayRow {
  day: number;
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
  /** The member's shifts begun in a range, per UTC day: how many, and their seconds (running ones count 0). */
  shiftDays: Sql<MemberDayRow, [string, string, number, number]>;
  /** The cases the member made in a range and that stand (not voided), per UTC day. */
  caseDays: Sql<MemberDayRow, [string, string, number, number]>;
  /** The modcall cards the member claimed whose first call came in a range. */
  claims: Sql<MemberClaimRow, [string, string, number, number]>;
}

const made = new WeakMap<SqlDialect, MemberMonthStatements>();

/**
 * The monthly figures' statements in the dialect, each over an index by member (record_shift_by_member,
 * record_case_by_moderator, record_modcall_by_claimer; the first two hold every column their read needs:
 * migrations/0006-member-history-indexes.ts): a member's years are read as a few thousand days, never the
 * guild's rows. Grouped by UTC day (an integer division on both engines); the caller adds the days into months.
 * sum() of a BIGINT is a NUMERIC in PostgreSQL: cast back to the integer both engines return.
 */
export function memberMonthStatements(d: SqlDialect): MemberMonthStatements {
  let statements = made.get(d);
  if (!statements) {
    statements = {
      shiftDays: d.sql(
        `SELECT (at / ${DAY_MS}) * ${DAY_MS} AS day, count(*) AS count,
                CAST(COALESCE(sum(seconds), 0) AS BIGINT) AS seconds
         FROM record_shift WHERE guild_id = ? AND member_id = ? AND at >= ? AND at < ?
         GROUP BY at / ${DAY_MS}`,
      ),
      // A case counts where it was made and stands: a voided one, or a case.voided whose case.created never came, not.
      caseDays: d.sql(
        `SELECT (at / ${DAY_MS}) * ${DAY_MS} AS day, count(*) AS count, 0 AS seconds
         FROM record_case WHERE guild_id = ? AND moderator_id = ? AND at >= ? AND at < ? AND voided_at IS NULL
         GROUP BY at / ${DAY_MS}`,
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
