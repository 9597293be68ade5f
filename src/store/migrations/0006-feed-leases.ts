import type { MigrationStep } from './migration-step.js';

/**
 * PostgreSQL's feed leases: each partition's epoch, which fences a process that lost its lease (pg-leases.ts). SQLite
 * has one process and no leases.
 */
export const feedLeases: MigrationStep = {
  name: 'feed-leases',
  legacy: { postgres: 9 },
  postgres: `
    -- Each feed partition's lease epoch: bumped by a process when it takes the partition (holding its advisory
    -- lock), checked (FOR SHARE) in the transaction of every write-down, confirm and release. A process that lost
    -- the partition without noticing (paused, cut off) is refused from the moment the next owner took it.
    CREATE TABLE feed_lease (
      partition INTEGER PRIMARY KEY,
      epoch     BIGINT NOT NULL
    );
  `,
};
