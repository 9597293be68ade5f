import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The conduct guard's tables. `conduct_guild`: a guild's /conduct choices (the alerts' channel, the role that
 * sees and answers them, the rules as changed from their defaults, JSON). `conduct_due`: the cases and shifts the
 * record's writer merged and the guard has still to judge, written in the merges' own transaction (so a crash
 * between a merge and its judgement loses nothing); `noted` counts the merges, so a judgement that raced a newer
 * merge of the same thing leaves it due. `conduct_finding`: an incident (a rule, its subject: a moderator or a
 * player, and the cases it found, JSON), its alert's message (the nonce written down before the post, and when),
 * and the version of it the message shows (`synced_version`: behind `version` until the message is edited).
 */
const SQL = `
    CREATE TABLE conduct_guild (
      guild_id   TEXT PRIMARY KEY,
      channel_id TEXT,
      role_id    TEXT,
      rules      TEXT NOT NULL DEFAULT '{}'
    );

    CREATE TABLE conduct_due (
      guild_id TEXT NOT NULL,
      kind     TEXT NOT NULL,
      server   TEXT NOT NULL,
      number   BIGINT NOT NULL,
      noted    BIGINT NOT NULL,
      failures BIGINT NOT NULL DEFAULT 0,
      try_at   BIGINT NOT NULL,
      PRIMARY KEY (guild_id, kind, server, number)
    );
    CREATE INDEX conduct_due_by_try ON conduct_due (try_at);

    CREATE TABLE conduct_finding (
      guild_id       TEXT NOT NULL,
      id             TEXT NOT NULL,
      rule           TEXT NOT NULL,
      subject        TEXT NOT NULL,
      opened_at      BIGINT NOT NULL,
      first_at       BIGINT NOT NULL,
      last_at        BIGINT NOT NULL,
      hits           TEXT NOT NULL,
      state          TEXT NOT NULL,
      merged_into    TEXT,
      acted_by       TEXT,
      acted_at       BIGINT,
      version        BIGINT NOT NULL,
      synced_version BIGINT NOT NULL DEFAULT 0,
      sync_try_at    BIGINT NOT NULL,
      sync_failures  BIGINT NOT NULL DEFAULT 0,
      channel_id     TEXT,
      message_id     TEXT,
      nonce          TEXT,
      written_at     BIGINT,
      PRIMARY KEY (guild_id, id)
    );
    CREATE INDEX conduct_finding_by_subject ON conduct_finding (guild_id, rule, subject, last_at);
    CREATE INDEX conduct_finding_unsynced ON conduct_finding (sync_try_at) WHERE synced_version < version;
    CREATE INDEX conduct_finding_by_time ON conduct_finding (last_at);
`;

export const conductTables: MigrationStep = {
  name: 'conduct',
  sqlite: SQL,
  postgres: SQL,
};
