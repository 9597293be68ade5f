import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The modcall cards each member claimed, by when the card's first call came: /staff history reads a member's claims
 * of every month (memberMonths) without walking the guild's every modcall of those years. Only claimed calls are in
 * it.
 */
const SQL = `
    CREATE INDEX record_modcall_by_claimer ON record_modcall (guild_id, claimed_by, at) WHERE claimed_by IS NOT NULL;
`;

export const claimsByMember: MigrationStep = {
  name: 'claims-by-member',
  sqlite: SQL,
  postgres: SQL,
};
