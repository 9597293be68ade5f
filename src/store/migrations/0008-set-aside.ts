import type { MigrationStep } from './migration-step.js';

/**
 * Items set aside by the batch jobs (../set-aside.ts). `set_aside` holds one row per item a job could not do on
 * its own: which job and item, the guild it belongs to (NULL for none; forgetting a guild deletes its rows), what
 * /status calls it, the latest failure's reason, how many tries failed, since when it is set aside and when it is
 * tried next. It stays small (what failed, nothing else), read by job and next try (`set_aside_due`), by guild for
 * /status (`set_aside_by_guild`).
 *
 * A delivery the record's writer set aside keeps its `unrecorded` mark, so it keeps its body, but as 2: the writer
 * reads what waits by `delivery_recording`, which holds only the 1s, and so never reads a delivery set aside
 * again until its next try is due (then by `set_aside_due`). `delivery_unrecorded` (every mark) had no other
 * reader and goes.
 */
const SQL = `
    CREATE TABLE set_aside (
      job      TEXT NOT NULL,
      item     TEXT NOT NULL,
      guild_id TEXT,
      label    TEXT NOT NULL,
      reason   TEXT NOT NULL,
      attempts INTEGER NOT NULL,
      since    BIGINT NOT NULL,
      retry_at BIGINT NOT NULL,
      PRIMARY KEY (job, item)
    );
    CREATE INDEX set_aside_due ON set_aside (job, retry_at);
    CREATE INDEX set_aside_by_guild ON set_aside (guild_id, since) WHERE guild_id IS NOT NULL;

    DROP INDEX delivery_unrecorded;
    CREATE INDEX delivery_recording ON delivery (seq) WHERE unrecorded = 1;
`;

export const setAside: MigrationStep = {
  name: 'set-aside',
  legacy: { sqlite: 14, postgres: 18 },
  sqlite: SQL,
  postgres: SQL,
};
