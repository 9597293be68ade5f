import type { SqlDialect } from './sql-dialect.js';

/**
 * The community record's schema, one migration of each engine (SQLite's 7th, PostgreSQL's 11th): history, never
 * edited; a change is a new migration. Written once for both (BIGINT is an integer in SQLite too).
 *
 * A delivery that tells of a case, shift, session or modcall is stored `unrecorded` (1), with its body, even when
 * it is posted or muted, until the record's writer has read its body, merged what it tells into these tables and
 * cleared the mark (dropping the body of what is posted). A merge is an upsert that changes nothing the second
 * time, so nothing is recorded twice or lost; the intake writes one small column more, no more bytes. Each
 * thing is keyed by what the service names it by within its game server; a guild may have several servers.
 * `at` is when the thing began (a period and the retention read it); `record_guild` lists the guilds that have
 * a record, with their retention, so the sweep visits each guild's oldest rows by index.
 */
export function communityRecordSchema(d: SqlDialect): string {
  // Names are searched by prefix: in byte order, so a range over the index finds them in any locale.
  const key = `TEXT${d.byteOrder} NOT NULL`;
  return `
    ALTER TABLE delivery ADD COLUMN unrecorded INTEGER;
    CREATE INDEX delivery_unrecorded ON delivery (seq) WHERE unrecorded IS NOT NULL;

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
      name_key  ${key},
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
}

/**
 * When each guild's record next has a row past its retention: its oldest row's time plus its retention (NULL
 * while it has no row). The writer lowers it as it merges, the sweep sets it again after deleting, and the hourly
 * sweep reads only the guilds due (by this index), never every guild. Existing guilds are due at once, so the
 * first sweep sets theirs. SQLite's 8th migration, PostgreSQL's 12th.
 */
export function recordSweepSchema(): string {
  return `
    ALTER TABLE record_guild ADD COLUMN due_at BIGINT;
    UPDATE record_guild SET due_at = 0;
    CREATE INDEX record_guild_due ON record_guild (due_at) WHERE due_at IS NOT NULL;
  `;
}

/**
 * Which card each modcall was counted on: `card_at`, the time of its card's first call (a card gathers one caller's
 * calls on one server, so with those it names the card; NULL: no card named it yet, a card of its own). A card is
 * claimed once: its claim, resolution and their times count once, on the row of its first call (`card_at = at`, or
 * NULL), while each call still counts as a call. Earlier versions told every call of a card its claim and
 * resolution: the calls of one caller and server claimed at the same moment (never claimed, resolved at the same
 * moment) are one card's, the earliest its first. SQLite's 12th migration, PostgreSQL's 16th.
 */
export function modcallCardSchema(): string {
  // One pass over the cards (grouped), not a lookup per row: a caller with many calls costs no more than their rows.
  const sameCard = (moment: 'claimed_at' | 'resolved_at', where: string) => `
    UPDATE record_modcall SET card_at = card.first_at
    FROM (SELECT guild_id, server, caller_id, ${moment}, min(at) AS first_at FROM record_modcall
          WHERE ${where} GROUP BY guild_id, server, caller_id, ${moment}) AS card
    WHERE record_modcall.guild_id = card.guild_id AND record_modcall.server = card.server
      AND record_modcall.caller_id = card.caller_id AND record_modcall.${moment} = card.${moment}
      AND record_modcall.card_at IS NULL;`;
  return `
    ALTER TABLE record_modcall ADD COLUMN card_at BIGINT;
    ${sameCard('claimed_at', 'claimed_at IS NOT NULL')}
    ${sameCard('resolved_at', 'claimed_at IS NULL AND resolved_at IS NOT NULL')}
  `;
}
