import { instantOfWall, wallClock } from '../../base/time-zone.js';
import type { TimeRange } from '../record/index.js';

/** The days of the week as /digest names them, in JavaScript's order (0 Sunday). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/**
 * The first time after `after` that the wall clock of `timeZone` shows `hour`:00 on `weekday` (0 Sunday): when a
 * weekly digest is due next, and the end of the week it covers.
 */
export function nextDigestAt(weekday: number, hour: number, timeZone: string, after: number): number {
  const today = wallClock(after, timeZone);
  for (let ahead = 0; ahead <= 8; ahead += 1) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead));
    if (date.getUTCDay() !== weekday) continue;
    const at = instantOfWall(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate(), hour), timeZone);
    if (at > after) return at;
  }
  throw new Error(`no ${WEEKDAYS[weekday] ?? weekday} ${hour}:00 in ${timeZone} within a week of ${after}`);
}

/**
 * The week a digest due at `weekEnd` covers: from the digest's `hour` on the zone's wall clock a week before (the
 * previous digest's hour) to `weekEnd`. Across a change of offset it is 167 or 169 hours, not 168: each hour of the
 * zone's weeks is in one digest, none in two and none in neither.
 */
export function weekEndingAt(weekEnd: number, hour: number, timeZone: string): TimeRange {
  const wall = wallClock(weekEnd, timeZone);
  return { from: instantOfWall(Date.UTC(wall.year, wall.month - 1, wall.day - 7, hour), timeZone), to: weekEnd };
}
