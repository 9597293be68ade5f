import type { APIEmbed } from 'discord.js';

import { truncateText } from '../../base/truncate-text.js';
import { mentionManager } from './mention-manager.js';
import type { Infraction, Promotion } from './store/staff-actions-store.js';

/** Longest reason or evidence a card shows (an embed field holds 1024). */
const FIELD_TEXT = 1_000;

const INFRACTION_COLOURS = { warning: 0xf1c40f, strike: 0xe67e22, suspension: 0xe74c3c, termination: 0x992d22 };
const VOIDED_COLOUR = 0x95a5a6;

/** "Strike", "Warning": an infraction's type as a card names it. */
export function infractionWord(type: Infraction['type']): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

/**
 * Whether an infraction counts at `now`: not voided, and not past its expiry. A voided or expired one stays in
 * the history, marked so.
 */
export function infractionState(infraction: Infraction, now: number): 'active' | 'expired' | 'voided' {
  if (infraction.voided) return 'voided';
  if (infraction.expiresAt !== null && infraction.expiresAt <= now) return 'expired';
  return 'active';
}

/**
 * The infraction's card in the staff-log channel: who, what, why, by whom, until when. A voided one keeps its card,
 * its title struck through, with who voided it and why.
 */
export function renderInfractionCard(infraction: Infraction): APIEmbed {
  const title = `Infraction #${infraction.number}: ${infractionWord(infraction.type)}`;
  const fields = [
    { name: 'Member', value: `<@${infraction.memberId}>`, inline: true },
    { name: 'Given by', value: mentionManager(infraction.givenBy), inline: true },
    { name: 'Reason', value: truncateText(infraction.reason, FIELD_TEXT) },
  ];
  if (infraction.evidence !== null)
    fields.push({ name: 'Evidence', value: truncateText(infraction.evidence, FIELD_TEXT) });
  if (infraction.expiresAt !== null) {
    fields.push({ name: 'Expires', value: `<t:${Math.floor(infraction.expiresAt / 1000)}:f>`, inline: true });
  }
  if (infraction.voided) {
    fields.push({
      name: 'Voided',
      value: truncateText(
        `by ${mentionManager(infraction.voided.by)} <t:${Math.floor(infraction.voided.at / 1000)}:R>: ${infraction.voided.reason}`,
        FIELD_TEXT,
      ),
    });
  }
  return {
    title: infraction.voided ? `~~${title}~~ (voided)` : title,
    color: infraction.voided ? VOIDED_COLOUR : INFRACTION_COLOURS[infraction.type],
    fields,
    timestamp: new Date(infraction.givenAt).toISOString(),
  };
}

/** The promotion's (or demotion's) card in the staff-log channel. */
export function renderPromotionCard(promotion: Promotion): APIEmbed {
  const promoted = promotion.direction === 'promote';
  const fields = [
    { name: 'Member', value: `<@${promotion.memberId}>`, inline: true },
    { name: 'By', value: mentionManager(promotion.givenBy), inline: true },
    {
      name: 'Rank',
      value: `${promotion.fromRoleId === null ? 'none' : `<@&${promotion.fromRoleId}>`} → <@&${promotion.toRoleId}>`,
    },
  ];
  if (promotion.reason !== null) fields.push({ name: 'Reason', value: truncateText(promotion.reason, FIELD_TEXT) });
  return {
    title: promoted ? 'Promotion' : 'Demotion',
    color: promoted ? 0x2ecc71 : 0x7f8c8d,
    fields,
    timestamp: new Date(promotion.doneAt ?? promotion.askedAt).toISOString(),
  };
}
