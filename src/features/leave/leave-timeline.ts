import type { Clock } from '../../base/clock.js';
import { truncateText } from '../../base/truncate-text.js';
import { describeState, kindName } from './leave-card.js';
import { dayStamp, lastDayStamp } from './leave-dates.js';
import type { LeaveStore } from './store/leave-store.js';

/** Requests a history shows at most: years of leave are a few dozen. */
const SHOWN = 100;
/** A reason as a timeline line quotes it (as the staff actions quote theirs). */
const QUOTED_REASON = 120;

/** One line of /staff history's timeline, as the staff actions feature takes it (its `TimelineEntry`). */
export interface LeaveTimelineEntry {
  at: number;
  line: string;
}

/**
 * A member's leave for /staff history's timeline: each request but a cancelled one, at the day it starts, with its
 * days, its state and its reason. Shaped as the staff actions feature's `TimelineSource` and handed to it by the
 * features' list, so neither feature imports the other.
 */
export function leaveTimeline(leave: Pick<LeaveStore, 'requestsOf'>, clock: Clock) {
  return {
    name: 'leave',
    async entriesOf(guildId: string, memberId: string): Promise<LeaveTimelineEntry[]> {
      const now = clock();
      const requests = await leave.requestsOf(guildId, memberId, SHOWN);
      return requests
        .filter((request) => request.state !== 'cancelled')
        .map((request) => ({
          at: request.startsAt,
          line:
            `**${kindName(request)}** #${request.number}, ${dayStamp(request.startsAt)} to ` +
            `${lastDayStamp(request.plannedEnd)}: ${describeState(request, now)} · ${truncateText(request.reason, QUOTED_REASON)}`,
        }));
    },
  };
}
