import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The staff actions' tables: discipline and promotions, the new facts /staff keeps beside the community record.
 *
 * `staff_guild`: who may act (the staff-manager role) and where the cards go (the staff-log channel).
 * `staff_rank`: the ladder of rank roles, `position` 0 the lowest.
 * `staff_infraction`: each infraction, numbered per guild (`number`, what /staff infraction-void names), written
 * once per interaction (`request_id`, unique per guild: a retried interaction finds its row rather than adding
 * one); a voided one keeps its row, with who voided it, when and why. Its card's message once posted.
 * `staff_promotion`: each promotion or demotion, written before the role change is asked of Discord (`done_at`
 * NULL) and confirmed once Discord made it; one Discord refused is deleted, so only a change made is kept.
 * Both are kept STAFF_ACTIONS_RETENTION_DAYS from when they were given (the sweep reads `*_by_time`).
 */
const SQL = `
    CREATE TABLE staff_guild (
      guild_id        TEXT PRIMARY KEY,
      manager_role_id TEXT,
      log_channel_id  TEXT
    );
    CREATE TABLE staff_rank (
      guild_id TEXT NOT NULL,
      role_id  TEXT NOT NULL,
      position INTEGER NOT NULL,
      PRIMARY KEY (guild_id, role_id)
    );
    CREATE TABLE staff_infraction (
      guild_id        TEXT NOT NULL,
      number          BIGINT NOT NULL,
      request_id      TEXT NOT NULL,
      member_id       TEXT NOT NULL,
      type            TEXT NOT NULL,
      reason          TEXT NOT NULL,
      evidence        TEXT,
      given_by        TEXT NOT NULL,
      given_at        BIGINT NOT NULL,
      expires_at      BIGINT,
      voided_by       TEXT,
      voided_at       BIGINT,
      void_reason     TEXT,
      card_channel_id TEXT,
      card_message_id TEXT,
      PRIMARY KEY (guild_id, number),
      UNIQUE (guild_id, request_id)
    );
    CREATE INDEX staff_infraction_by_member ON staff_infraction (guild_id, member_id, given_at);
    CREATE INDEX staff_infraction_by_time ON staff_infraction (given_at);
    CREATE TABLE staff_promotion (
      guild_id        TEXT NOT NULL,
      request_id      TEXT NOT NULL,
      member_id       TEXT NOT NULL,
      direction       TEXT NOT NULL,
      from_role_id    TEXT,
      to_role_id      TEXT NOT NULL,
      reason          TEXT,
      given_by        TEXT NOT NULL,
      asked_at        BIGINT NOT NULL,
      done_at         BIGINT,
      card_channel_id TEXT,
      card_message_id TEXT,
      PRIMARY KEY (guild_id, request_id)
    );
    CREATE INDEX staff_promotion_by_member ON staff_promotion (guild_id, member_id, asked_at);
    CREATE INDEX staff_promotion_by_time ON staff_promotion (asked_at);
`;

export const staffActionsTables: MigrationStep = { name: 'tables', sqlite: SQL, postgres: SQL };
