import { importKeyvTables } from '../sqlite/import-keyv-tables.js';
import type { KernelStep } from './migration-step.js';

/**
 * The first schema: webhooks (`hook`), each guild's settings, every delivery from acceptance until a day after it was
 * posted (the queue), each channel's state and each hook's activity. On SQLite, a file an older version wrote as keyv
 * tables is moved into it. PostgreSQL's first numbered step also made the first accept function; the running one is
 * in ../postgres/functions/.
 */
export const hooksAndDeliveries: KernelStep = {
  name: 'hooks-and-deliveries',
  legacy: { sqlite: 1, postgres: 1 },
  sqlite: `
    CREATE TABLE hook (
      hook_id    TEXT PRIMARY KEY,
      guild_id   TEXT NOT NULL,
      webhook_id TEXT,
      secret     TEXT NOT NULL,
      events     TEXT NOT NULL,  -- JSON array of event names
      created_at INTEGER NOT NULL
    );
    CREATE INDEX hook_by_guild ON hook (guild_id, created_at);

    CREATE TABLE guild_settings (
      guild_id TEXT PRIMARY KEY,
      settings TEXT NOT NULL     -- JSON, GuildSettingsSchema
    );

    -- Every delivery from acceptance until 24 h after it was posted. seq is the order (commit order: one
    -- writer); (hook_id, delivery_id) is unique for as long as the row lives, which is what dedupes.
    CREATE TABLE delivery (
      seq          INTEGER PRIMARY KEY AUTOINCREMENT,
      hook_id      TEXT NOT NULL,
      delivery_id  TEXT NOT NULL,
      guild_id     TEXT NOT NULL,
      event        TEXT NOT NULL,
      received_at  INTEGER NOT NULL,
      raw_body     TEXT,          -- dropped once posted
      state        TEXT NOT NULL CHECK (state IN ('waiting', 'parked', 'posted')),
      channel_id   TEXT,          -- the lane it waits in; NULL while unrouted
      claim_nonce  TEXT,          -- the message it was written down for, until Discord confirmed it
      park_kind    TEXT CHECK (park_kind IN ('unrouted', 'broken', 'refused')),
      park_detail  TEXT,
      parked_at    INTEGER,
      posted_at    INTEGER,
      UNIQUE (hook_id, delivery_id)
    );
    CREATE INDEX delivery_lane ON delivery (channel_id, state, seq);
    CREATE INDEX delivery_by_guild ON delivery (guild_id, state, event);
    CREATE INDEX delivery_posted ON delivery (state, posted_at);
    -- A written-down message is found by its nonce without reading the rest of its lane (ack, resend).
    CREATE INDEX delivery_claimed ON delivery (claim_nonce) WHERE claim_nonce IS NOT NULL;

    CREATE TABLE channel_state (
      channel_id    TEXT PRIMARY KEY,
      guild_id      TEXT NOT NULL,
      failures      INTEGER NOT NULL DEFAULT 0,
      retry_at      INTEGER,
      broken_status INTEGER,
      broken_reason TEXT,
      broken_since  INTEGER
    );
    CREATE INDEX channel_state_by_guild ON channel_state (guild_id);

    CREATE TABLE hook_activity (
      hook_id          TEXT PRIMARY KEY,
      last_delivery_at INTEGER,
      last_event       TEXT,
      refused          INTEGER NOT NULL DEFAULT 0,
      refused_in_a_row INTEGER NOT NULL DEFAULT 0,
      last_refusal     TEXT,
      enabled          INTEGER,
      enabled_at       INTEGER
    );
  `,
  postgres: `
    CREATE TABLE hook (
      hook_id    TEXT PRIMARY KEY,
      guild_id   TEXT NOT NULL,
      webhook_id TEXT,
      secret     TEXT NOT NULL,
      events     JSONB NOT NULL,
      created_at BIGINT NOT NULL
    );
    CREATE INDEX hook_by_guild ON hook (guild_id, created_at);

    CREATE TABLE guild_settings (
      guild_id TEXT PRIMARY KEY,
      settings JSONB NOT NULL,
      -- Bumped by every change: an accept routed with an older version is refused ('stale') and routed again.
      version  BIGINT NOT NULL
    );

    CREATE SEQUENCE delivery_seq;
    -- Every delivery from acceptance until 24 h after it was posted; (hook_id, delivery_id) is unique for as long
    -- as the row lives, which is what dedupes. seq comes from delivery_seq under the guild's advisory lock, so
    -- within a guild it is commit order.
    CREATE TABLE delivery (
      seq          BIGINT PRIMARY KEY,
      hook_id      TEXT NOT NULL,
      delivery_id  TEXT NOT NULL,
      guild_id     TEXT NOT NULL,
      event        TEXT NOT NULL,
      received_at  BIGINT NOT NULL,
      raw_body     TEXT,
      state        TEXT NOT NULL CHECK (state IN ('waiting', 'parked', 'posted')),
      channel_id   TEXT,
      claim_nonce  TEXT,
      park_kind    TEXT CHECK (park_kind IN ('unrouted', 'broken', 'refused')),
      park_detail  TEXT,
      parked_at    BIGINT,
      posted_at    BIGINT,
      UNIQUE (hook_id, delivery_id)
    );
    CREATE INDEX delivery_lane ON delivery (channel_id, seq) WHERE state = 'waiting';
    CREATE INDEX delivery_by_guild ON delivery (guild_id, state, event);
    CREATE INDEX delivery_posted ON delivery (posted_at) WHERE state = 'posted';
    -- A written-down message is found by its nonce without reading the rest of its lane (ack, resend).
    CREATE INDEX delivery_claimed ON delivery (claim_nonce) WHERE claim_nonce IS NOT NULL;

    CREATE TABLE channel_state (
      channel_id    TEXT PRIMARY KEY,
      guild_id      TEXT NOT NULL,
      failures      INTEGER NOT NULL DEFAULT 0,
      retry_at      BIGINT,
      broken_status INTEGER,
      broken_reason TEXT,
      broken_since  BIGINT
    );
    CREATE INDEX channel_state_by_guild ON channel_state (guild_id);

    CREATE TABLE hook_activity (
      hook_id          TEXT PRIMARY KEY,
      last_delivery_at BIGINT,
      last_event       TEXT,
      refused          INTEGER NOT NULL DEFAULT 0,
      refused_in_a_row INTEGER NOT NULL DEFAULT 0,
      last_refusal     TEXT,
      enabled          BOOLEAN,
      enabled_at       BIGINT
    );
  `,
  // A file written by a version before this schema keeps its hooks, settings and waiting deliveries.
  sqliteAlso: importKeyvTables,
};
