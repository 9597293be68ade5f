import type { MigrationStep } from './migration-step.js';

/**
 * A delivery that tells the community record something is stored `unrecorded` (1), with its body, even when it
 * is posted or muted, until the record's writer has read its body, merged what it tells and cleared the mark
 * (dropping the body of what is posted). The intake writes one small column more, no more bytes. Made with the
 * community record's tables (src/features/record/store/migrations/), in the same numbered step.
 */
const SQL = `
    ALTER TABLE delivery ADD COLUMN unrecorded INTEGER;
    CREATE INDEX delivery_unrecorded ON delivery (seq) WHERE unrecorded IS NOT NULL;
`;

export const unrecordedMark: MigrationStep = {
  name: 'unrecorded-mark',
  legacy: { sqlite: 7, postgres: 11 },
  sqlite: SQL,
  postgres: SQL,
};
