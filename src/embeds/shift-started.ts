import type { MessagePayload } from '../discord/message-payload.js';
import type { EventOf } from '../upstream/schemas.js';
import { COLOURS } from './colours.js';
import { composeMessage } from './message.js';
import { formatStaffMember } from './people.js';
import { formatEventTime } from './time.js';
import type { RenderContext } from './types.js';

/** `shift.started`: who clocked in, and when. */
export function renderShiftStarted(event: EventOf<'shift.started'>, ctx: RenderContext): MessagePayload {
  const { shift } = event.data;
  return composeMessage(
    {
      title: 'Shift started',
      color: COLOURS.shiftStarted,
      fields: [
        { name: 'Staff member', value: formatStaffMember(shift), inline: true },
        { name: 'Started', value: formatEventTime(shift.startedAt), inline: true },
      ],
    },
    event,
    ctx,
  );
}
