import { wallClock } from '../../base/time-zone.js';

/** The days of the week as /digest names them, in JavaScript's order (0 Sunday). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const DAY_MS = 24 * 60 * 60 * 1000;
export const WEEK_MS = 7 * DAY_MS;

/** How far `timeZone`'s wall clock is ahead of UTC at `ms` (negative west of Greenwich). */
function offsetAt(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant the wall clock of `timeZone` shows `hour`:00 on the given date. The offset is read at a first guess,
 * then at the instant it gives (they differ only across a change of offset); an hour a change skips (spring)
 * comes out an hour later, one it repeats (autumn) the first time.
 */
function instantOf(year: number, month: number, day: number, hour: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day, hour);
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}

/**
 * The first time after `after` that the wall clock of `timeZone` shows `hour`:00 on `weekday` (0 Sunday): when a
 * weekly digest is due next, and the end of the week it covers.
 */
export function nextDigestAt(weekday: number, hour: number, timeZone: string, after: number): number {
  const today = wallClock(after, timeZone);
  for (let ahead = 0; ahead <= 8; ahead += 1) {
    const date = new Date(Date.UTC(today.year, today.month - 1, today.day + ahead));
    if (date.getUTCDay() !== weekday) continue;
    const at = instantOf(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate(), hour, timeZone);
    if (at > after) return at;
  }
  throw new Error(`no ${WEEKDAYS[weekday] ?? weekday} ${hour}:00 in ${timeZone} within a week of ${after}`);
}
