import type { Database } from 'better-sqlite3';

import { digestBackoffSchema, digestSchema } from '../digest-schema.js';
import { boardAskedSchema, coverageSchema, dutyRoleHoldersSchema, dutySchema } from '../duty-schema.js';
import { communityRecordSchema, modcallCardSchema, recordSweepSchema } from '../record-schema.js';
import { setAsideSchema } from '../set-aside-schema.js';
import { sqliteDialect } from '../sql-dialect.js';
import { importKeyvTables } from './import-keyv-tables.js';

/**
 * The schema, one step per version; `PRAGMA user_version` records the steps applied. A step runs once, in a
 * transaction with the version bump, so a crash mid-migration leaves the previous version whole.
 */
const MIGRATIONS: ReadonlyArray<(db: Database) => void> = [
  (db) => {
    db.exec(`
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
    `);
    // A file written by a version before this schema keeps its hooks, settings and waiting deliveries.
    importKeyvTables(db);
  },
  (db) => {
    db.exec(`
      CREATE TABLE record (
        kind  TEXT NOT NULL,
        key   TEXT NOT NULL,
        value TEXT NOT NULL,  -- JSON
        PRIMARY KEY (kind, key)
      );
    `);
  },
  (db) => {
    db.exec(`
      -- Admin actions (commands and buttons): who, what, when, how it ended. Read newest first per guild.
      CREATE TABLE audit (
        id       INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id TEXT NOT NULL,
        user_id  TEXT NOT NULL,
        action   TEXT NOT NULL,
        result   TEXT NOT NULL CHECK (result IN ('done', 'refused', 'failed')),
        detail   TEXT,
        at       INTEGER NOT NULL
      );
      CREATE INDEX audit_by_guild ON audit (guild_id, id);
      CREATE INDEX audit_by_time ON audit (at);
    `);
  },
  (db) => {
    db.exec(`
      -- What routing rules may name besides the event: the game server and a case's type (NULL: none, or stored
      -- before rules could name them). muted: stored as posted because an 'off' rule applied; counted in /status.
      ALTER TABLE delivery ADD COLUMN server TEXT;
      ALTER TABLE delivery ADD COLUMN case_type TEXT;
      ALTER TABLE delivery ADD COLUMN muted INTEGER NOT NULL DEFAULT 0;
      CREATE INDEX delivery_muted ON delivery (guild_id, event) WHERE muted = 1;
    `);
  },
  (db) => {
    db.exec(`
      -- The message a lane wrote down and has not had confirmed (at most one per channel): what a resend sends
      -- again exactly, whatever the cards would plan by then. Looked up by its nonce; a row whose nonce no entry
      -- carries any more is a leftover, replaced by the channel's next message.
      CREATE TABLE written_message (
        channel_id TEXT PRIMARY KEY,
        nonce      TEXT NOT NULL,
        message    TEXT NOT NULL
      );
    `);
  },
  (db) => {
    db.exec(`
      -- A document's time (when it falls due, or when it was made), indexed per kind: a timer reads only what is
      -- due and a sweep deletes only what is old, a slice at a time, whatever else the kind holds.
      ALTER TABLE record ADD COLUMN at INTEGER;
      CREATE INDEX record_due ON record (kind, at, key) WHERE at IS NOT NULL;

      -- The cards' documents as earlier versions left them. A removed card was stored as null (a tombstone): gone.
      DELETE FROM record WHERE value = 'null'
        AND kind IN ('card', 'card_message', 'card_final', 'modcall_card', 'modcall_caller', 'modcall_escalation');
      -- Followed cards and final states are swept 30 days after their time; a message without one goes at once,
      -- as before. A modcall card is due now: the escalator looks at each once and gives it its time.
      UPDATE record SET at = json_extract(value, '$.postedAt') WHERE kind IN ('card', 'modcall_card');
      UPDATE record SET at = COALESCE(json_extract(value, '$.postedAt'), 0) WHERE kind = 'card_message';
      UPDATE record SET at = json_extract(value, '$.at') WHERE kind = 'card_final';
      -- A caller's latest call has no time of its own: it is kept 30 days from now.
      UPDATE record SET at = CAST(strftime('%s', 'now') AS INTEGER) * 1000 WHERE kind = 'modcall_caller';

      -- Held (parked) entries are dropped after their retention, the oldest first (with state in the key, the
      -- planner takes this index, not delivery_posted and a sort).
      CREATE INDEX delivery_parked ON delivery (state, parked_at) WHERE state = 'parked';
    `);
  },
  (db) => {
    db.exec(communityRecordSchema(sqliteDialect));
  },
  (db) => {
    db.exec(recordSweepSchema());
  },
  (db) => {
    db.exec(digestSchema());
  },
  (db) => {
    db.exec(dutySchema(sqliteDialect));
  },
  (db) => {
    db.exec(coverageSchema());
  },
  (db) => {
    db.exec(dutyRoleHoldersSchema());
  },
  (db) => {
    db.exec(modcallCardSchema());
  },
  (db) => {
    db.exec(setAsideSchema());
  },
  (db) => {
    db.exec(boardAskedSchema());
  },
  (db) => {
    db.exec(digestBackoffSchema());
  },
];

/** Brings the file's schema to the newest version; refuses a file written by a newer version of the bot. */
export function migrate(db: Database): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > MIGRATIONS.length) {
    throw new Error(
      `the store file was written by a newer version of the bot (schema ${current}, this version knows ${MIGRATIONS.length}): upgrade the bot`,
    );
  }
  MIGRATIONS.slice(current).forEach((step, i) => {
    db.transaction(() => {
      step(db);
      db.pragma(`user_version = ${current + i + 1}`);
    }).immediate();
  });
}
