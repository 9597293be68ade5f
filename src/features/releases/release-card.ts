import type { APIEmbedField } from 'discord.js';

import type { MessagePayload } from '../../discord/message-payload.js';
import { formatInlineCode, formatName, formatUserText } from '../../embeds/format.js';
import { fitMessageToLimits } from '../../embeds/limits.js';
import { formatDuration, toEmbedTimestamp } from '../../embeds/time.js';
import type { Card } from './app-documents.js';

/** Card colours: waiting amber, approved green, refused red, withdrawn grey, anything else blurple. */
const CARD_COLOURS = { pending: 0xffbf00, approved: 0x57f287, refused: 0xed4245, withdrawn: 0x95a5a6, other: 0x5865f2 };

/** Shown where the service named no review state. */
const NO_STATE = 'no state given';

/** The app a card belongs to. */
export interface CardApp {
  appId: string;
  appName: string;
}

/**
 * The release card of one version: its review state verbatim (the service's own word), how long it has been
 * in that state (a Discord timestamp, so it counts on by itself), what is new, and who withdrew it. Nobody is
 * pinged by a card: names and user mentions in it are text.
 */
export function renderReleaseCard(app: CardApp, card: Card): MessagePayload {
  const state = card.state ?? NO_STATE;
  const fields: APIEmbedField[] = [
    { name: 'Review state', value: formatInlineCode(state, 200), inline: true },
    { name: 'In this state since', value: relative(card.stateSince), inline: true },
  ];
  if (card.pendingSince !== null && !card.pending) {
    const waited = Math.max(0, card.stateSince - card.pendingSince);
    fields.push({ name: 'Time in review', value: formatDuration(waited / 1000), inline: true });
  }
  if (card.whatsNew !== null) fields.push({ name: "What's new", value: formatUserText(card.whatsNew, 1000) });
  if (card.withdrawnBy !== null) fields.push({ name: 'Withdrawn', value: `Withdrawn by <@${card.withdrawnBy}>` });
  const timestamp = toEmbedTimestamp(card.stateSince);
  return fitMessageToLimits({
    embeds: [
      {
        title: formatVersionName(app.appName, card.label),
        description: card.pending ? 'Waiting for review.' : 'Review is over for this version.',
        color: colourOf(card),
        fields,
        footer: { text: `App ${app.appId} · version ${card.label}` },
        ...(timestamp === undefined ? {} : { timestamp }),
      },
    ],
    allowed_mentions: { parse: [] },
  });
}

/**
 * The short message that announces an outcome (a version leaving review): the state it left for, how long
 * review took, a link to its card, and the watch's role, the only thing it may ping.
 */
export function renderOutcome(
  app: CardApp,
  card: Card,
  where: { guildId: string; roleId: string | null },
): MessagePayload {
  const ping = where.roleId === null ? '' : `<@&${where.roleId}> `;
  const took =
    card.pendingSince === null
      ? ''
      : ` after ${formatDuration(Math.max(0, card.stateSince - card.pendingSince) / 1000)}`;
  const by = card.withdrawnBy === null ? '' : ` (withdrawn by <@${card.withdrawnBy}>)`;
  const link =
    card.messageId === null ? '' : ` https://discord.com/channels/${where.guildId}/${card.channelId}/${card.messageId}`;
  return fitMessageToLimits({
    content: `${ping}${outcomeHeadline(app, card)}${took}${by}.${link}`,
    embeds: [],
    allowed_mentions: where.roleId === null ? { parse: [] } : { parse: [], roles: [where.roleId] },
  });
}

/**
 * What an outcome message says first after its ping: the version and the state it left review for, which no other
 * message of the bot says (a try of it later than Discord keeps nonces finds an earlier try's post by it).
 */
export function outcomeHeadline(app: CardApp, card: Card): string {
  return `**${formatVersionName(app.appName, card.label)}** left review: ${formatInlineCode(card.state ?? NO_STATE, 200)}`;
}

/** The one admin message when the service refuses the developer key: what happened, what to do. */
export function renderKeyRefusal(status: 401 | 403): MessagePayload {
  const why =
    status === 401
      ? 'the service no longer accepts the developer key (401: it was replaced or revoked)'
      : "the service says this account's developer access was revoked (403)";
  const fix =
    status === 401
      ? 'Someone with Manage Server: run /app key with the current upk_… key.'
      : 'The account owner must have developer access restored; then someone with Manage Server runs /app key.';
  return {
    content: `⚠️ Release cards are paused: ${why}. ${fix} Until then the bot asks the service nothing for this server.`,
    embeds: [],
    allowed_mentions: { parse: [] },
  };
}

/** "Pricewise 1.2": an app's name and a version label as one escaped line (escaped apart, "1.2" would become "1\\.2"). */
export function formatVersionName(appName: string, label: string): string {
  return formatName(`${appName} ${label}`, 230);
}

function relative(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `<t:${seconds}:R>`;
}

function colourOf(card: Card): number {
  if (card.pending) return CARD_COLOURS.pending;
  const state = card.state ?? '';
  if (/withdraw|cancel/i.test(state) || card.withdrawnBy !== null) return CARD_COLOURS.withdrawn;
  if (/reject|denied|declin|fail|removed/i.test(state)) return CARD_COLOURS.refused;
  if (/approv|publish|live|released|accepted/i.test(state)) return CARD_COLOURS.approved;
  return CARD_COLOURS.other;
}
