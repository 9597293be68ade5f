import type { APIEmbed } from 'discord.js';

import type { MessagePayload } from '../discord/message-payload.js';
import type { EventOf } from '../upstream/schemas.js';
import { COLOURS } from './colours.js';
import { composeMessage } from './message.js';
import { formatDiscordUser } from './people.js';
import { formatSessionMessage, formatSessionTitle } from './session-text.js';
import { formatEventTime } from './time.js';
import type { RenderContext } from './types.js';

/** `session.started`: the session's name and message, who started it and when. */
export function renderSessionStarted(event: EventOf<'session.started'>, ctx: RenderContext): MessagePayload {
  const { session } = event.data;
  const embed: APIEmbed = {
    title: formatSessionTitle('Session started', session.name),
    color: COLOURS.sessionStarted,
    fields: [
      { name: 'Started by', value: formatDiscordUser(session.startedBy), inline: true },
      { name: 'Started', value: formatEventTime(session.startedAt), inline: true },
    ],
  };
  const description = formatSessionMessage(session.message);
  if (description !== undefined) embed.description = description;
  return composeMessage(embed, event, ctx);
}
