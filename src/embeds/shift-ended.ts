import type { MessagePayload } from '../discord/message-payload.js';
import type { EventOf } from '../upstream/schemas.js';
import { COLOURS } from './colours.js';
import { composeMessage } from './message.js';
import { formatStaffMember } from './people.js';
import { formatDuration, formatEventTime } from './time.js';
import type { RenderContext } from './types.js';

/**
 * `shift.ended`: who clocked out, the shift's start and end, and its length. The length comes from the
 * service's `seconds`, not from endedAt − startedAt: it is the service's own count, whatever it leaves out.
 */
export function renderShiftEnded(event: EventOf<'shift.ended'>, ctx: RenderContext): MessagePayload {
  const { shift } = event.data;
  return composeMessage(
    {
      title: 'Shift ended',
      color: COLOURS.shiftEnded,
      fields: [
        { name: 'Staff member', value: formatStaffMember(shift) },
        { name: 'Started', value: formatEventTime(shift.startedAt), inline: true },
        { name: 'Ended', value: formatEventTime(shift.endedAt), inline: true },
        { name: 'Duration', value: formatDuration(shift.seconds), inline: true },
      ],
    },
    event,
    ctx,
  );
}
