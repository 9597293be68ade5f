import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The on-duty role's holders. `duty_guild.role_set_by` is the member who chose the role with /duty role (NULL for
 * a role chosen before it was kept): the role is given only while that member could still give it themselves.
 *
 * `duty_role_holder` is each member the bot gave a role to for a shift, per role: written before the bot asks
 * Discord (`given_at` NULL until Discord answered), deleted once the role is taken back, so a restart, another
 * process or a changed /duty role knows whom to take it from. A guild has a row per member holding it (the staff
 * on shift); forgetting the guild deletes its rows.
 */
const SQL = `
    ALTER TABLE duty_guild ADD COLUMN role_set_by TEXT;
    CREATE TABLE duty_role_holder (
      guild_id  TEXT NOT NULL,
      member_id TEXT NOT NULL,
      role_id   TEXT NOT NULL,
      given_at  BIGINT,
      PRIMARY KEY (guild_id, member_id, role_id)
    );
`;

export const roleHolders: MigrationStep = {
  name: 'role-holders',
  legacy: { sqlite: 12, postgres: 16 },
  sqlite: SQL,
  postgres: SQL,
};
