import type { APIEmbed, APIEmbedField } from 'discord.js';

import type { MessagePayload } from '../discord/message-payload.js';
import type { EventOf } from '../upstream/schemas.js';
import { COLOURS } from './colours.js';
import { composeMessage } from './message.js';
import { formatDiscordUser } from './people.js';
import { formatSessionMessage, formatSessionTitle } from './session-text.js';
import { formatDuration, formatEventTime } from './time.js';
import type { RenderContext } from './types.js';

/**
 * `session.ended`: the session, when it ended, how long it ran, and its stats. The service documents only
 * id, name and endedAt for an ended session; message, startedBy and startedAt are shown when they are there
 * (the objects are loose, so extra fields survive parsing) and have the shape they have on session.started.
 */
export function renderSessionEnded(event: EventOf<'session.ended'>, ctx: RenderContext): MessagePayload {
  const { session, stats } = event.data;
  const startedBy = readDiscordUser(session.startedBy);
  const startedAt = readEpochMs(session.startedAt);

  const fields: APIEmbedField[] = [];
  if (startedBy !== undefined) fields.push({ name: 'Started by', value: formatDiscordUser(startedBy), inline: true });
  if (startedAt !== undefined) fields.push({ name: 'Started', value: formatEventTime(startedAt), inline: true });
  fields.push({ name: 'Ended', value: formatEventTime(session.endedAt), inline: true });
  // A session that "ended before it started" is a clock problem upstream, not a duration worth showing.
  if (startedAt !== undefined && startedAt <= session.endedAt) {
    fields.push({ name: 'Duration', value: formatDuration((session.endedAt - startedAt) / 1000), inline: true });
  }
  fields.push(
    { name: 'Joins', value: String(stats.joins), inline: true },
    { name: 'Cases', value: String(stats.cases), inline: true },
  );

  const embed: APIEmbed = {
    title: formatSessionTitle('Session ended', session.name),
    color: COLOURS.sessionEnded,
    fields,
  };
  const description = formatSessionMessage(session.message);
  if (description !== undefined) embed.description = description;
  return composeMessage(embed, event, ctx);
}

function readEpochMs(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : undefined;
}

function readDiscordUser(value: unknown): { discordId: string; name: string } | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { discordId, name } = value as Record<string, unknown>;
  return typeof discordId === 'string' && typeof name === 'string' ? { discordId, name } : undefined;
}
