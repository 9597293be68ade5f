import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * A case's evidence as the service gave it (JSON text, record-update.ts's evidenceTextOf), kept with the case so
 * its evidence pack (/case evidence) still has it once the delivery's body is gone; NULL for none, and for the
 * cases merged before this step. And the cases by number: /case evidence names a case by its number alone (a
 * guild's game servers each count their own), which the primary key (guild, server, number) cannot find without
 * walking every server's cases.
 */
const SQL = `
    ALTER TABLE record_case ADD COLUMN evidence TEXT;
    CREATE INDEX record_case_by_number ON record_case (guild_id, number);
`;

export const caseEvidence: MigrationStep = {
  name: 'case-evidence',
  sqlite: SQL,
  postgres: SQL,
};
