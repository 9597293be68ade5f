import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * What /staff history reads of a member's years (memberMonths, member-month-statements.ts) from the indexes alone,
 * never the guild's rows: a moderator with 20,000 cases in five years is 20,000 index entries, not 20,000 lookups in
 * the table. The member's indexes of cases and shifts are made again with the column each read needs besides
 * (whether a case was voided; a shift's seconds): what read them before reads them as it did, on the same first
 * columns. The modcall cards each member claimed get an index of their own, by when the card's first call came,
 * with the claim's time (only claimed calls are in it; which card a call is on, `card_at`, is read from the row: a
 * member's claims are a few thousand). Rebuilding both takes a few seconds on a record
 * of a million cases.
 */
const SQL = `
    DROP INDEX record_case_by_moderator;
    CREATE INDEX record_case_by_moderator ON record_case (guild_id, moderator_id, at, voided_at);
    DROP INDEX record_shift_by_member;
    CREATE INDEX record_shift_by_member ON record_shift (guild_id, member_id, at, seconds);
    CREATE INDEX record_modcall_by_claimer ON record_modcall (guild_id, claimed_by, at, claimed_at)
      WHERE claimed_by IS NOT NULL;
`;

export const memberHistoryIndexes: MigrationStep = {
  name: 'member-history-indexes',
  sqlite: SQL,
  postgres: SQL,
};
