import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * A guild's choices of /duty: the channel of its on-duty board and the id of the board's message there (NULL until
 * the first post, and again when it was deleted and not yet posted anew), and the role given to the members on
 * shift. A guild without a row has neither. (The community record's open shifts' index was made in the same
 * numbered step: src/features/record/store/migrations/.)
 */
const SQL = `
    CREATE TABLE duty_guild (
      guild_id         TEXT PRIMARY KEY,
      board_channel_id TEXT,
      board_message_id TEXT,
      role_id          TEXT
    );
`;

export const dutyGuild: MigrationStep = {
  name: 'duty-guild',
  legacy: { sqlite: 10, postgres: 14 },
  sqlite: SQL,
  postgres: SQL,
};
