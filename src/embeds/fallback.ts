import type { APIEmbedField } from 'discord.js';

import type { MessagePayload } from '../discord/message-payload.js';
import type { Envelope } from '../upstream/schemas.js';
import { COLOURS } from './colours.js';
import { formatCodeBlock, formatName, stringifyJson } from './format.js';
import { composeMessage } from './message.js';
import type { RenderContext } from './types.js';

/** Why a delivery gets the plain rendering. */
export type FallbackReason = { kind: 'unknown' } | { kind: 'mismatch'; problem: string };

/** The data dump is a hint, not an archive (the delivery is kept whole elsewhere): a third of the 6000 budget. */
const MAX_DATA_JSON_LENGTH = 1500;
/** zod's list of problems, cut so that its code block fits in one field even with every backtick broken. */
const MAX_PROBLEM_LENGTH = 400;
const MAX_EVENT_NAME_LENGTH = 200;

const WORDING = {
  unknown: {
    title: 'Unknown event',
    note: 'This bot does not know this event (a test ping, or an event newer than the bot). Its data as received:',
  },
  mismatch: {
    title: 'Unexpected data',
    note: 'This event did not carry the data this bot expects for it. Its data as received:',
  },
} as const;

/**
 * Any delivery the event builders cannot take, an unknown event or a known one whose data did not match,
 * shown plainly with its data, so that nothing is dropped without a trace.
 */
export function renderFallback(envelope: Envelope, reason: FallbackReason, ctx: RenderContext): MessagePayload {
  const wording = WORDING[reason.kind];
  const server = describeServer(envelope.server);
  const fields: APIEmbedField[] = [{ name: 'Server', value: formatName(server), inline: true }];
  if (reason.kind === 'mismatch') {
    fields.push({ name: 'Problem', value: formatCodeBlock(reason.problem, MAX_PROBLEM_LENGTH) });
  }
  return composeMessage(
    {
      title: `${wording.title} · ${formatName(envelope.event, MAX_EVENT_NAME_LENGTH)}`,
      description: `${wording.note}\n${formatCodeBlock(stringifyJson(envelope.data, 2), MAX_DATA_JSON_LENGTH, 'json')}`,
      color: COLOURS.fallback,
      fields,
    },
    { id: envelope.id, server, at: envelope.at },
    ctx,
  );
}

/** The envelope's `server` is unchecked for unknown events: show a string as it is, anything else as JSON. */
function describeServer(server: unknown): string {
  if (typeof server === 'string') return server;
  return server === undefined ? 'unknown' : stringifyJson(server);
}
