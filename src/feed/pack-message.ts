import type { MessagePayload } from '../discord/message-payload.js';
import { embedLength, MAX_CONTENT_LENGTH, MAX_EMBEDS_PER_MESSAGE, MAX_MESSAGE_EMBED_CHARS } from '../embeds/limits.js';

/** One entry's rendered message, waiting to be packed. */
export interface RenderedItem<T> {
  item: T;
  payload: MessagePayload;
}

/** A message made of the first items that fit, and which items it carries. */
export interface PackedMessage<T> {
  items: T[];
  payload: MessagePayload;
}

/**
 * Packs consecutive items into one message while it stays within Discord's limits: up to 10 embeds, 6000
 * characters over all embeds, 2000 of content. The first item always goes in (each payload alone already fits).
 * Pings of all items are kept: contents joined, allowed roles and users merged.
 */
export function packMessage<T>(rendered: readonly RenderedItem<T>[]): PackedMessage<T> {
  const items: T[] = [];
  const embeds: MessagePayload['embeds'] = [];
  const contents: string[] = [];
  const roles = new Set<string>();
  const users = new Set<string>();
  let chars = 0;
  let contentLength = 0;

  for (const { item, payload } of rendered) {
    const size = payload.embeds.reduce((sum, embed) => sum + embedLength(embed), 0);
    const content = payload.content ?? '';
    const addedContent = content ? content.length + (contents.length > 0 ? 1 : 0) : 0;
    const fits =
      embeds.length + payload.embeds.length <= MAX_EMBEDS_PER_MESSAGE &&
      chars + size <= MAX_MESSAGE_EMBED_CHARS &&
      contentLength + addedContent <= MAX_CONTENT_LENGTH;
    if (items.length > 0 && !fits) break;
    items.push(item);
    embeds.push(...payload.embeds);
    chars += size;
    if (content) contents.push(content);
    contentLength += addedContent;
    for (const role of payload.allowed_mentions.roles ?? []) roles.add(role);
    for (const user of payload.allowed_mentions.users ?? []) users.add(user);
  }

  const payload: MessagePayload = {
    embeds,
    allowed_mentions: {
      parse: [],
      ...(roles.size > 0 ? { roles: [...roles] } : {}),
      ...(users.size > 0 ? { users: [...users] } : {}),
    },
  };
  if (contents.length > 0) payload.content = contents.join('\n');
  return { items, payload };
}
