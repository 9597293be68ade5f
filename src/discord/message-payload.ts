import type { APIAllowedMentions, APIEmbed } from 'discord.js';

/**
 * The whole body of one Discord message for one event, in Discord's own (snake_case) field names.
 * The sender maps it onto discord.js `channel.send` options; the outbox may merge the embeds of several
 * payloads into one message (see `MAX_EMBEDS_PER_MESSAGE` and `MAX_MESSAGE_EMBED_CHARS` in `../limits.ts`).
 */
export interface MessagePayload {
  content?: string;
  embeds: APIEmbed[];
  /** Always present: `{ parse: [] }`, plus `roles: [id]` only when the route pings a role. */
  allowed_mentions: APIAllowedMentions;
}
