import type { MessagePayload } from '../discord/message-payload.js';
import type { EventOf } from '../upstream/schemas.js';
import { formatCaseType } from './case-type.js';
import { COLOURS } from './colours.js';
import { formatUserText } from './format.js';
import { composeMessage } from './message.js';
import { formatPersonId, formatRobloxUser } from './people.js';
import { formatEventTime } from './time.js';
import type { RenderContext } from './types.js';

const MAX_REASON_LENGTH = 1000;

/** `case.voided`: which case, who voided it and when, and what it was about. */
export function renderCaseVoided(event: EventOf<'case.voided'>, ctx: RenderContext): MessagePayload {
  const { case: voided } = event.data;
  return composeMessage(
    {
      title: `Case #${voided.number} · ${formatCaseType(voided.type)} · Voided`,
      color: COLOURS.voided,
      fields: [
        { name: 'Target', value: formatRobloxUser(voided.target), inline: true },
        { name: 'Voided by', value: formatPersonId(voided.voidedBy), inline: true },
        { name: 'Voided', value: formatEventTime(voided.voidedAt), inline: true },
        { name: 'Original reason', value: formatUserText(voided.reason, MAX_REASON_LENGTH) },
      ],
    },
    event,
    ctx,
  );
}
