import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * Leave of absence and reduced activity (/leave).
 *
 * - `leave_settings`: a guild's /leave choices: the channel its requests' cards go to, the leave managers' role, the
 *   role given for a leave's duration and who chose it (`role_set_by`: the role is given only while they could give
 *   it themselves), the time zone its dates are read in, and the last number given to a request (`last_number`,
 *   raised in the request's own transaction: its row lock makes two requests of the guild wait for each other, so
 *   neither misses the other's overlap).
 * - `leave_request`: one row a request, numbered per guild. `starts_at` and `ends_at` are instants (ms), the end
 *   excluded; `ends_at` moves to the return on an early end (`planned_end` keeps what was asked). What the job still
 *   has to do for it is `work` ('card': post its card; 'start': give its role; 'end': take it back) at `try_at`,
 *   later while a failure backs off (`failures` in a row); the job reads only the rows due, by `leave_request_due`.
 * - `leave_role_holder`: the leave role the bot gave for a request, written before it asks Discord (`given_at` NULL
 *   until Discord answered) and deleted once taken back, so a restart knows whom to take it from.
 */
const SQL = `
    CREATE TABLE leave_settings (
      guild_id        TEXT PRIMARY KEY,
      channel_id      TEXT,
      manager_role_id TEXT,
      role_id         TEXT,
      role_set_by     TEXT,
      time_zone       TEXT NOT NULL DEFAULT 'UTC',
      last_number     BIGINT NOT NULL DEFAULT 0
    );

    CREATE TABLE leave_request (
      guild_id        TEXT NOT NULL,
      number          BIGINT NOT NULL,
      member_id       TEXT NOT NULL,
      kind            TEXT NOT NULL CHECK (kind IN ('leave', 'reduced')),
      starts_at       BIGINT NOT NULL,
      ends_at         BIGINT NOT NULL,
      planned_end     BIGINT NOT NULL,
      reason          TEXT NOT NULL,
      state           TEXT NOT NULL CHECK (state IN ('pending', 'approved', 'denied', 'cancelled')),
      asked_at        BIGINT NOT NULL,
      decided_by      TEXT,
      decided_at      BIGINT,
      card_channel_id TEXT,
      card_message_id TEXT,
      card_asked_at   BIGINT,
      work            TEXT CHECK (work IN ('card', 'start', 'end')),
      try_at          BIGINT,
      failures        INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (guild_id, number)
    );
    CREATE INDEX leave_request_by_member ON leave_request (guild_id, member_id, starts_at);
    CREATE INDEX leave_request_by_end ON leave_request (guild_id, ends_at);
    CREATE INDEX leave_request_by_time ON leave_request (ends_at);
    CREATE INDEX leave_request_due ON leave_request (try_at) WHERE try_at IS NOT NULL;

    CREATE TABLE leave_role_holder (
      guild_id  TEXT NOT NULL,
      number    BIGINT NOT NULL,
      member_id TEXT NOT NULL,
      role_id   TEXT NOT NULL,
      given_at  BIGINT,
      PRIMARY KEY (guild_id, number)
    );
`;

export const leaveTables: MigrationStep = { name: 'leave', sqlite: SQL, postgres: SQL };
