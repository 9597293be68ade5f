import type { MigrationStep } from './migration-step.js';

/**
 * PostgreSQL's gateway shards, held by the feed processes as partitions are (pg-shard-share.ts): how many shards
 * the deployment opens, the same for every process, and when each identify bucket may identify next. SQLite has
 * one process, which opens every shard itself.
 */
export const gatewayShards: MigrationStep = {
  name: 'gateway-shards',
  postgres: `
    -- The deployment's shard count: every process must identify with the same one, or Discord would send a
    -- guild's events to two sessions. Written by a process that starts alone (Discord's recommendation then).
    CREATE TABLE gateway_shards (
      id    SMALLINT PRIMARY KEY CHECK (id = 1),
      count INTEGER NOT NULL CHECK (count > 0)
    );
    -- Discord lets max_concurrency shards identify per 5 seconds, for the whole bot: each process reserves its
    -- identify's turn here (one row per bucket, shard % max_concurrency), whichever process it is.
    CREATE TABLE gateway_identify (
      bucket  INTEGER PRIMARY KEY,
      next_at TIMESTAMPTZ NOT NULL
    );
  `,
};
