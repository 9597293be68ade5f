import type { MigrationStep } from './migration-step.js';

/**
 * The features' documents (`store.documents`, documents.ts): JSON values by kind and key. The table is `record`, a
 * name from before the community record.
 */
export const documents: MigrationStep = {
  name: 'documents',
  legacy: { sqlite: 2, postgres: 2 },
  sqlite: `
    CREATE TABLE record (
      kind  TEXT NOT NULL,
      key   TEXT NOT NULL,
      value TEXT NOT NULL,  -- JSON
      PRIMARY KEY (kind, key)
    );
  `,
  postgres: `
    CREATE TABLE record (
      kind  TEXT NOT NULL,
      key   TEXT NOT NULL,
      value JSONB NOT NULL,
      PRIMARY KEY (kind, key)
    );
  `,
};
