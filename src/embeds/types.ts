import type { APIAllowedMentions, APIEmbed } from 'discord.js';

import type { EventName, EventOf } from '../upstream/schemas.js';

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

/** What the route decided for this event, beyond the event itself. */
export interface RenderContext {
  /** The role to ping with this event, if the route has one (a snowflake; anything else is ignored). */
  mentionRoleId?: string;
}

/** A pure builder of the message for one kind of event. */
export type EventRenderer<N extends EventName> = (event: EventOf<N>, ctx: RenderContext) => MessagePayload;

/** One builder per documented event: a new event name without a builder fails to compile. */
export type EventRendererMap = { [N in EventName]: EventRenderer<N> };
