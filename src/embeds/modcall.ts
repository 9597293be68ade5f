import type { MessagePayload } from '../discord/message-payload.js';
import type { EventOf } from '../upstream/schemas.js';
import { COLOURS } from './colours.js';
import { composeMessage } from './message.js';
import { formatRobloxUser } from './people.js';
import { formatEventTime } from './time.js';
import type { RenderContext } from './types.js';

/**
 * `modcall`: who in game is asking for a moderator, and since when. The route's role (if any) is pinged in
 * the message content, which composeMessage adds for every event.
 */
export function renderModcall(event: EventOf<'modcall'>, ctx: RenderContext): MessagePayload {
  const { caller, at } = event.data;
  return composeMessage(
    {
      title: 'Modcall',
      color: COLOURS.modcall,
      fields: [
        { name: 'Caller', value: formatRobloxUser(caller), inline: true },
        { name: 'Called', value: formatEventTime(at), inline: true },
      ],
    },
    event,
    ctx,
  );
}
