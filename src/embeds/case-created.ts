import type { APIEmbedField } from 'discord.js';

import type { MessagePayload } from '../discord/message-payload.js';
import type { EventOf } from '../upstream/schemas.js';
import { caseTypeColour, formatCaseType } from './case-type.js';
import { formatEvidence } from './evidence.js';
import { formatUserText } from './format.js';
import { composeMessage } from './message.js';
import { formatDiscordUser, formatRobloxUser } from './people.js';
import { formatEventTime } from './time.js';
import type { RenderContext } from './types.js';

/** Reasons are cut a little under the field limit, leaving room for the escapes markdown adds. */
const MAX_REASON_LENGTH = 1000;

/** `case.created`: who was actioned, by whom, why, with what evidence, and when. */
export function renderCaseCreated(event: EventOf<'case.created'>, ctx: RenderContext): MessagePayload {
  const { case: created } = event.data;
  const fields: APIEmbedField[] = [
    { name: 'Target', value: formatRobloxUser(created.target), inline: true },
    { name: 'Moderator', value: formatDiscordUser(created.moderator), inline: true },
    { name: 'In game', value: created.inGame ? 'Yes' : 'No', inline: true },
    { name: 'Reason', value: formatUserText(created.reason, MAX_REASON_LENGTH) },
  ];
  // `undefined` counts as no evidence too: the key may be missing altogether.
  if (created.evidence !== null && created.evidence !== undefined) {
    fields.push({ name: 'Evidence', value: formatEvidence(created.evidence) });
  }
  fields.push({ name: 'Created', value: formatEventTime(created.createdAt) });

  return composeMessage(
    {
      title: `Case #${created.number} · ${formatCaseType(created.type)}`,
      color: caseTypeColour(created.type),
      fields,
    },
    event,
    ctx,
  );
}
