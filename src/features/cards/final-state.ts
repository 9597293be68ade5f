import type { APIEmbed } from 'discord.js';

import { embedLength, MAX_EMBEDS_PER_MESSAGE, MAX_MESSAGE_EMBED_CHARS } from '../../embeds/limits.js';
import { renderDelivery } from '../../embeds/render-delivery.js';
import { classifyEntry } from '../../feed/render-entry.js';
import type { ServiceEvent } from '../../upstream/schemas.js';
import type { FinalState } from './card-documents.js';

/*
 * How a card looks in its subject's final state (a voided case, an ended session or shift): drawn from the final
 * event in the lane, or from the one kept in the store when it was posted on its own before its card existed.
 */

/** The event that ends a subject, and its own embeds. */
export interface Ending {
  event: ServiceEvent | undefined;
  embeds: APIEmbed[];
}

export function storedEnding(final: FinalState): Ending {
  const classified = classifyEntry(final);
  return {
    event: classified.kind === 'event' ? classified.event : undefined,
    embeds: renderDelivery(classified, {}).embeds,
  };
}

export function sessionStartOf(start: ServiceEvent | undefined): Record<string, unknown> | undefined {
  return start?.event === 'session.started' ? { ...start.data.session } : undefined;
}

/**
 * The embeds of a card's final state: the final event's own, except that an ended session is drawn with what its
 * start said (who started it, when: the duration), which session.ended does not carry.
 */
export function finalEmbeds(ending: Ending, sessionStart: Record<string, unknown> | undefined): APIEmbed[] {
  const event = ending.event;
  if (event?.event !== 'session.ended' || !sessionStart) return ending.embeds;
  const merged = { ...event, data: { ...event.data, session: { ...sessionStart, ...event.data.session } } };
  return renderDelivery({ kind: 'event', event: merged }, {}).embeds;
}

export function fitsOneMessage(embeds: readonly APIEmbed[]): boolean {
  const chars = embeds.reduce((sum, embed) => sum + embedLength(embed), 0);
  return embeds.length <= MAX_EMBEDS_PER_MESSAGE && chars <= MAX_MESSAGE_EMBED_CHARS;
}
