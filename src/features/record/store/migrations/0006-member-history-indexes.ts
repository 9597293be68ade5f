import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * What /staff history reads of a member's years (memberMonths, member-month-statements.ts) from the indexes alone,
 * never the guild's rows: the modcall cards each member claimed, by when the card's first call came, with the claim's
 * time and the card (only claimed calls are in it); and each moderator's cases that stand (not voided), by when they
 * were made. A moderator with 20,000 cases in five years is then 20,000 index entries, not 20,000 rows of the table.
 */
const SQL = `
    CREATE INDEX record_modcall_by_claimer ON record_modcall (guild_id, claimed_by, at, claimed_at, card_at)
      WHERE claimed_by IS NOT NULL;
    CREATE INDEX record_case_standing_by_moderator ON record_case (guild_id, moderator_id, at) WHERE voided_at IS NULL;
`;

export const memberHistoryIndexes: MigrationStep = {
  name: 'member-history-indexes',
  sqlite: SQL,
  postgres: SQL,
};
