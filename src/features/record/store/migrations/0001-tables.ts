import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/** A player's name as searched by prefix: in byte order, so a range over the index finds it in any locale. */
const key = (byteOrder: string) => `TEXT${byteOrder} NOT NULL`;

/**
 * The community record's tables. A merge is an upsert that changes nothing the second time, so nothing is
 * recorded twice or lost. Each thing is keyed by what the service names it by within its game server; a guild may
 * have several servers. `at` is when the thing began (a period and the retention read it); `record_guild` lists
 * the guilds that have a record, with their retention, so the sweep visits each guild's oldest rows by index. The
 * deliveries' `unrecorded` mark the writer reads is the kernel's (src/store/migrations/0007-unrecorded-mark.ts),
 * made in the same numbered step.
 */
const tables = (byteOrder: string) => `
    -- retention_days and staff_role_id: NULL until an admin sets them (/record retention, /record staff-role).
    CREATE TABLE record_guild (
      guild_id       TEXT PRIMARY KEY,
      retention_days INTEGER,
      staff_role_id  TEXT
    );

    CREATE TABLE record_case (
      guild_id       TEXT NOT NULL,
      server         TEXT NOT NULL,
      number         BIGINT NOT NULL,
      at             BIGINT NOT NULL,
      type           TEXT,
      target_id      TEXT,
      target_name    TEXT,
      moderator_id   TEXT,
      moderator_name TEXT,
      reason         TEXT,
      created_at     BIGINT,
      voided_at      BIGINT,
      voided_by      TEXT,
      PRIMARY KEY (guild_id, server, number)
    );
    CREATE INDEX record_case_by_target ON record_case (guild_id, target_id, at);
    CREATE INDEX record_case_by_moderator ON record_case (guild_id, moderator_id, at);
    CREATE INDEX record_case_by_time ON record_case (guild_id, at);

    -- The players cases named, for lookups by name and autocomplete: the latest name each id was seen with.
    CREATE TABLE record_player (
      guild_id  TEXT NOT NULL,
      player_id TEXT NOT NULL,
      name      TEXT NOT NULL,
      name_key  ${key(byteOrder)},
      at        BIGINT NOT NULL,
      PRIMARY KEY (guild_id, player_id)
    );
    CREATE INDEX record_player_by_name ON record_player (guild_id, name_key);
    CREATE INDEX record_player_by_time ON record_player (guild_id, at);

    CREATE TABLE record_shift (
      guild_id    TEXT NOT NULL,
      server      TEXT NOT NULL,
      shift_id    BIGINT NOT NULL,
      at          BIGINT NOT NULL,
      member_id   TEXT,
      member_name TEXT,
      roblox_id   TEXT,
      started_at  BIGINT,
      ended_at    BIGINT,
      seconds     BIGINT,
      PRIMARY KEY (guild_id, server, shift_id)
    );
    CREATE INDEX record_shift_by_member ON record_shift (guild_id, member_id, at);
    CREATE INDEX record_shift_by_time ON record_shift (guild_id, at);

    CREATE TABLE record_session (
      guild_id        TEXT NOT NULL,
      server          TEXT NOT NULL,
      session_id      BIGINT NOT NULL,
      at              BIGINT NOT NULL,
      name            TEXT,
      started_by_id   TEXT,
      started_by_name TEXT,
      started_at      BIGINT,
      ended_at        BIGINT,
      peak_players    BIGINT,
      joins           BIGINT,
      cases           BIGINT,
      PRIMARY KEY (guild_id, server, session_id)
    );
    CREATE INDEX record_session_by_time ON record_session (guild_id, at);

    -- A modcall has no id of its own: the caller and the moment name it. Claimed and resolved come from its card.
    CREATE TABLE record_modcall (
      guild_id    TEXT NOT NULL,
      server      TEXT NOT NULL,
      caller_id   TEXT NOT NULL,
      at          BIGINT NOT NULL,
      caller_name TEXT,
      claimed_by  TEXT,
      claimed_at  BIGINT,
      resolved_by TEXT,
      resolved_at BIGINT,
      PRIMARY KEY (guild_id, server, caller_id, at)
    );
    CREATE INDEX record_modcall_by_time ON record_modcall (guild_id, at);
`;

export const recordTables: MigrationStep = {
  name: 'tables',
  legacy: { sqlite: 7, postgres: 11 },
  sqlite: tables(''),
  postgres: tables(' COLLATE "C"'),
};
