import type { ServiceEvent } from '../../src/upstream/schemas.js';

/** Seconds as `1 h 05 min` or `12 min`, for terminal lines. */
function shortDuration(seconds: number): string {
  const minutes = Math.floor(Math.max(0, seconds) / 60);
  const hours = Math.floor(minutes / 60);
  return hours > 0 ? `${hours} h ${String(minutes % 60).padStart(2, '0')} min` : `${minutes} min`;
}

/** One line about an event for a terminal: what happened, to whom, in plain words (no markdown, no ids). */
export function describeEvent(event: ServiceEvent): string {
  switch (event.event) {
    case 'session.started':
      return `"${event.data.session.name}" started by ${event.data.session.startedBy.name}`;
    case 'session.ended':
      return `"${event.data.session.name}" ended: ${event.data.stats.joins} joins, ${event.data.stats.cases} cases`;
    case 'shift.started':
      return `${event.data.shift.name} clocked in`;
    case 'shift.ended':
      return `${event.data.shift.name} clocked out after ${shortDuration(event.data.shift.seconds)}`;
    case 'case.created': {
      const { number, type, target, moderator } = event.data.case;
      return `case #${number} ${type} for ${target.name}, by ${moderator.name}`;
    }
    case 'case.voided':
      return `case #${event.data.case.number} (${event.data.case.type} for ${event.data.case.target.name}) voided`;
    case 'modcall':
      return `${event.data.caller.name} calls for a moderator`;
  }
}
