import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * The board's resend: `duty_guild` gains `board_asked_at`, when the board's next post was written down (its nonce
 * is the guild's, channel's and previous message's, so it needs no column), NULL once the post's id is noted or
 * the board moves. A try of the post later than Discord keeps nonces looks for the post an earlier try made first.
 */
const SQL = `
    ALTER TABLE duty_guild ADD COLUMN board_asked_at BIGINT;
`;

export const boardAsked: MigrationStep = {
  name: 'board-asked',
  legacy: { sqlite: 15, postgres: 19 },
  sqlite: SQL,
  postgres: SQL,
};
