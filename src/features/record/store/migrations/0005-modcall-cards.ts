import type { MigrationStep } from '../../../../store/migrations/migration-step.js';

/**
 * Which card each modcall was counted on: `card_at`, the time of its card's first call (a card gathers one caller's
 * calls on one server, so with those it names the card; NULL: no card named it yet, a card of its own). A card is
 * claimed once: its claim, resolution and their times count once, on the row of its first call (`card_at = at`, or
 * NULL), while each call still counts as a call. Earlier versions told every call of a card its claim and
 * resolution: the calls of one caller and server claimed at the same moment (never claimed, resolved at the same
 * moment) are one card's, the earliest its first.
 */
function cardOfEachCall(): string {
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

const SQL = cardOfEachCall();

export const modcallCards: MigrationStep = {
  name: 'modcall-cards',
  legacy: { sqlite: 13, postgres: 17 },
  sqlite: SQL,
  postgres: SQL,
};
