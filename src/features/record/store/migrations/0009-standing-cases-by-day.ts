import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * /staff history's cases by month on PostgreSQL (member-month-statements.ts, caseMonths): a moderator's standing
 * cases in the order of their UTC day (`at / 86400000`, written as the statement writes it, or the planner does not
 * match them), so the days are counted as the index gives them, one after another, instead of each of a five-year
 * moderator's 20,000 cases being hashed by day; and only standing cases are in it, half the pages of
 * record_case_by_moderator to read. Measured on the benchmark's guild (bench/staff-history.ts): the statement's
 * time on the server down by about two fifths. `at` is in it for the statement's range. PostgreSQL only: SQLite reads
 * a history well within its limit without it, and with no ANALYZE its planner could take it for the guild's other
 * reads of cases, which were not measured with it. A few seconds on a record of a million cases.
 */
export const standingCasesByDay: MigrationStep = {
  name: 'standing-cases-by-day',
  postgres: `
    CREATE INDEX record_case_standing_by_day ON record_case (guild_id, moderator_id, (at / 86400000), at)
      WHERE voided_at IS NULL;
`,
};
