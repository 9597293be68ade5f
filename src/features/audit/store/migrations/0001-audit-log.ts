import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/** Admin actions (commands and buttons): who, what, when, how it ended. Read newest first per guild, by id. */
export const auditLog: MigrationStep = {
  name: 'audit-log',
  legacy: { sqlite: 3, postgres: 3 },
  sqlite: `
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
  `,
  postgres: `
    -- Admin actions (commands and buttons): who, what, when, how it ended. Read newest first per guild.
    CREATE TABLE audit (
      id       BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      guild_id TEXT NOT NULL,
      user_id  TEXT NOT NULL,
      action   TEXT NOT NULL,
      result   TEXT NOT NULL CHECK (result IN ('done', 'refused', 'failed')),
      detail   TEXT,
      at       BIGINT NOT NULL
    );
    CREATE INDEX audit_by_guild ON audit (guild_id, id);
    CREATE INDEX audit_by_time ON audit (at);
  `,
};
