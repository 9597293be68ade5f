/**
 * Discord rules for message payloads that its OpenAPI schema cannot express (sums over several embeds,
 * non-empty strings, a lower content limit for bots). Per-item limits such as 10 embeds per message or
 * 256 characters per title are in the schema itself. Pure functions over untyped JSON bodies.
 */

/** Discord counts these embed texts together against one limit per message. */
export const EMBED_TOTAL_CHARACTER_LIMIT = 6000;
/**
 * Message content for bots. The published schema allows 4000 on channel messages because Nitro users may send
 * that much; a bot gets "Must be 2000 or fewer in length".
 */
export const BOT_CONTENT_LIMIT = 2000;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textLength(value: unknown): number {
  // Discord measures in Unicode code points, not UTF-16 units.
  return typeof value === 'string' ? [...value].length : 0;
}

function embedCharacters(embed: Record<string, unknown>): number {
  let total = textLength(embed['title']) + textLength(embed['description']);
  const footer = embed['footer'];
  if (isRecord(footer)) total += textLength(footer['text']);
  const author = embed['author'];
  if (isRecord(author)) total += textLength(author['name']);
  const fields = embed['fields'];
  if (Array.isArray(fields)) {
    for (const field of fields) {
      if (isRecord(field)) total += textLength(field['name']) + textLength(field['value']);
    }
  }
  return total;
}

/**
 * Total characters Discord counts over all embeds of one message: title, description, field names and values,
 * footer text and author name.
 */
export function countEmbedCharacters(embeds: readonly unknown[]): number {
  let total = 0;
  for (const embed of embeds) if (isRecord(embed)) total += embedCharacters(embed);
  return total;
}

/** Options for {@link checkMessageLimits}. */
export interface MessageLimitOptions {
  /** A create (not an edit) must carry something visible: content, embeds, components, stickers, a poll or files. */
  readonly requireContent: boolean;
}

/**
 * Problems with a message-like body (channel message, interaction reply, webhook message) that the schema misses.
 * Returns readable problems; empty when the body satisfies these rules.
 */
export function checkMessageLimits(body: unknown, options: MessageLimitOptions): string[] {
  if (!isRecord(body)) return [];
  const problems: string[] = [];

  const content = body['content'];
  if (typeof content === 'string' && textLength(content) > BOT_CONTENT_LIMIT) {
    problems.push(`/content: must be ${BOT_CONTENT_LIMIT} or fewer in length (got ${textLength(content)})`);
  }

  const embeds = body['embeds'];
  if (Array.isArray(embeds)) {
    const total = countEmbedCharacters(embeds);
    if (total > EMBED_TOTAL_CHARACTER_LIMIT) {
      problems.push(
        `/embeds: embed size exceeds maximum size of ${EMBED_TOTAL_CHARACTER_LIMIT} characters (got ${total})`,
      );
    }
    embeds.forEach((embed, index) => {
      if (!isRecord(embed) || !Array.isArray(embed['fields'])) return;
      embed['fields'].forEach((field: unknown, fieldIndex) => {
        if (!isRecord(field)) return;
        // The schema only bounds the length; Discord also answers "This field is required" for "".
        for (const key of ['name', 'value'] as const) {
          if (field[key] === '') problems.push(`/embeds/${index}/fields/${fieldIndex}/${key}: must not be empty`);
        }
      });
    });
  }

  if (options.requireContent && !hasVisibleContent(body)) {
    problems.push('/: cannot send an empty message (no content, embeds, components, stickers, poll or files)');
  }
  return problems;
}

function hasVisibleContent(body: Record<string, unknown>): boolean {
  const content = body['content'];
  if (typeof content === 'string' && content.length > 0) return true;
  for (const key of ['embeds', 'components', 'sticker_ids', 'attachments'] as const) {
    const value = body[key];
    if (Array.isArray(value) && value.length > 0) return true;
  }
  return isRecord(body['poll']);
}
