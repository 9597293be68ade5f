import type { MigrationStep } from './migration-step.js';

/**
 * The message each lane wrote down and has not had confirmed, sent again exactly on a resend.
 */
export const writtenMessages: MigrationStep = {
  name: 'written-messages',
  legacy: { sqlite: 5, postgres: 6 },
  sqlite: `
    -- The message a lane wrote down and has not had confirmed (at most one per channel): what a resend sends
    -- again exactly, whatever the cards would plan by then. Looked up by its nonce; a row whose nonce no entry
    -- carries any more is a leftover, replaced by the channel's next message.
    CREATE TABLE written_message (
      channel_id TEXT PRIMARY KEY,
      nonce      TEXT NOT NULL,
      message    TEXT NOT NULL
    );
  `,
  postgres: `
    -- The message a lane wrote down and has not had confirmed (at most one per channel): what a resend sends again
    -- exactly, whatever the cards would plan by then. Looked up by its nonce; a leftover is replaced by the next one.
    CREATE TABLE written_message (
      channel_id TEXT PRIMARY KEY,
      nonce      TEXT NOT NULL,
      message    TEXT NOT NULL
    );
  `,
};
