import type { MigrationStep } from './migration-step.js';

/**
 * The accept functions no running version calls, dropped: the numbered steps made six generations of the intake's
 * accept, and only `bridge_accept_placed` (../postgres/functions/bridge-accept-placed.ts) is called, by this
 * version and by the one before it (so a rolling restart from it keeps working: its processes call the same
 * function, whose body is the same). The others were kept, each in its time, for the processes of the version
 * before during a rolling restart; no version since the one that made `bridge_accept_placed` calls them. A store
 * made after the numbered steps never had them.
 */
export const unusedAcceptFunctions: MigrationStep = {
  name: 'unused-accept-functions',
  postgres: `
    DROP FUNCTION IF EXISTS bridge_accept(TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BIGINT);
    DROP FUNCTION IF EXISTS bridge_accept(TEXT, TEXT, TEXT, TEXT, TEXT, BIGINT, TEXT, BIGINT, TEXT, TEXT, BOOLEAN);
    DROP FUNCTION IF EXISTS bridge_accept_many(JSONB);
    DROP FUNCTION IF EXISTS bridge_accept_batch(JSONB);
  `,
};
