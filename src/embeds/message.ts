import { roleMention, userMention, type APIAllowedMentions, type APIEmbed } from 'discord.js';

import { truncateText } from '../base/truncate-text.js';
import type { MessagePayload } from '../discord/message-payload.js';
import { isSnowflake } from '../discord/snowflake.js';
import { toEmbedTimestamp } from './time.js';
import type { RenderContext } from './types.js';

/** The envelope fields every embed shows; `at` is unknown because an unrecognised delivery may lack it. */
export interface DeliveryStamp {
  id: string;
  server: string;
  at: unknown;
}

/**
 * A delivery id is shown up to this in the footer. The service's ids are short; a very long one (accepted all
 * the same) would otherwise take up to a third of a message's 6000 characters, which its neighbours need.
 */
const MAX_FOOTER_ID_LENGTH = 200;

/**
 * Wraps one event's embed into a message: footer `Server <server> · Delivery <id>`, the event time as the
 * embed timestamp, and the route's role ping (or, in its place, the members given), the only mentions the message
 * may make: its allowed_mentions are exactly who its content pings.
 */
export function composeMessage(embed: APIEmbed, stamp: DeliveryStamp, ctx: RenderContext): MessagePayload {
  const id = truncateText(stamp.id, MAX_FOOTER_ID_LENGTH);
  const stamped: APIEmbed = { ...embed, footer: { text: `Server ${stamp.server} · Delivery ${id}` } };
  const timestamp = toEmbedTimestamp(stamp.at);
  if (timestamp !== undefined) stamped.timestamp = timestamp;

  const given = ctx.mentionRoleId;
  // A role id that is not a snowflake cannot be pinged and would make Discord refuse allowed_mentions.
  const roleId = given !== undefined && isSnowflake(given) ? given : undefined;
  const userIds = (ctx.mentionUserIds ?? []).filter(isSnowflake);
  if (userIds.length > 0) {
    // Only the members named in the text are pinged, and only they are allowed: the role is pinged later, if at
    // all, by a message of its own (what that needs is kept by whoever pings it, never in this payload).
    const allowed = { parse: [], users: userIds };
    return { content: userIds.map((id) => userMention(id)).join(' '), embeds: [stamped], allowed_mentions: allowed };
  }
  if (roleId === undefined) return { embeds: [stamped], allowed_mentions: allowMentions() };
  return { content: roleMention(roleId), embeds: [stamped], allowed_mentions: allowMentions(roleId) };
}

/**
 * Mentions in the text (user text included) ping nobody, except the route's role when there is one.
 * `parse: []` is spelled out so that a client-wide default in discord.js cannot widen it.
 */
function allowMentions(roleId?: string): APIAllowedMentions {
  return roleId === undefined ? { parse: [] } : { parse: [], roles: [roleId] };
}
