import type { MigrationStep } from './migration-step.js';

/**
 * What routing rules may name besides the event (a delivery's game server and case type), and muted deliveries.
 * PostgreSQL's numbered step also replaced the accept function; the running one is in ../postgres/functions/.
 */
export const routingKeys: MigrationStep = {
  name: 'routing-keys',
  legacy: { sqlite: 4, postgres: 4 },
  sqlite: `
    -- What routing rules may name besides the event: the game server and a case's type (NULL: none, or stored
    -- before rules could name them). muted: stored as posted because an 'off' rule applied; counted in /status.
    ALTER TABLE delivery ADD COLUMN server TEXT;
    ALTER TABLE delivery ADD COLUMN case_type TEXT;
    ALTER TABLE delivery ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;
    CREATE INDEX delivery_muted ON delivery (guild_id, event) WHERE muted = 1;
  `,
  postgres: `
    -- What routing rules may name besides the event: the game server and a case's type (NULL: none, or stored
    -- before rules could name them). muted: stored as posted because an 'off' rule applied; counted in /status.
    ALTER TABLE delivery ADD COLUMN server TEXT;
    ALTER TABLE delivery ADD COLUMN case_type TEXT;
    ALTER TABLE delivery ADD COLUMN muted BOOLEAN NOT NULL DEFAULT false;
    CREATE INDEX delivery_muted ON delivery (guild_id, event) WHERE muted;
  `,
};
