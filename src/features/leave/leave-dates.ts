import { UserFacingError } from '../../base/errors.js';
import { instantOfWall, wallDate } from '../../base/time-zone.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** The longest request: half a year. A longer absence is a matter for the staff team, not a leave request. */
export const MAX_LEAVE_DAYS = 183;

/** A request's time: from the midnight starting its first day to the midnight ending its last, in the zone. */
export interface LeaveSpan {
  startsAt: number;
  endsAt: number;
  days: number;
}

/**
 * Reads `from` and `to` (YYYY-MM-DD, days of the server's time zone, both included) as the instants the leave starts
 * and ends. Refused in plain words: a date that is not one, an end before the start, a start before today (in the
 * zone), or more than {@link MAX_LEAVE_DAYS} days.
 */
export function readLeaveSpan(from: string, to: string, timeZone: string, now: number): LeaveSpan {
  const first = readDay(from, 'from');
  const last = readDay(to, 'to');
  if (last < first) throw new UserFacingError(`The leave ends (${to}) before it starts (${from}). Nothing was saved.`);
  const today = wallDate(now, timeZone);
  if (first < today) {
    throw new UserFacingError(
      `${from} is in the past (today is ${isoDay(today)} in ${timeZone}): a request starts today or later. Nothing was saved.`,
    );
  }
  const days = Math.round((last - first) / DAY_MS) + 1;
  if (days > MAX_LEAVE_DAYS) {
    throw new UserFacingError(`A request is ${MAX_LEAVE_DAYS} days at most (this one is ${days}). Nothing was saved.`);
  }
  return { startsAt: instantOfWall(first, timeZone), endsAt: instantOfWall(last + DAY_MS, timeZone), days };
}

/** A Discord timestamp of the day (`<t:…:D>`): each reader sees it in their own zone's words. */
export function dayStamp(ms: number): string {
  return `<t:${Math.floor(ms / 1000)}:D>`;
}

/** The last day of a leave, as a Discord timestamp: the instant before its (excluded) end. */
export function lastDayStamp(endsAt: number): string {
  return dayStamp(endsAt - 1);
}

function readDay(text: string, name: string): number {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  const [year, month, day] = (match?.slice(1) ?? []).map(Number);
  if (year !== undefined && month !== undefined && day !== undefined) {
    const wall = Date.UTC(year, month - 1, day);
    // Date.UTC rolls 2026-02-30 over to March: a day that does not exist comes back different.
    if (isoDay(wall) === text.trim()) return wall;
  }
  throw new UserFacingError(`${name}: "${text}" is not a date like 2026-12-24. Nothing was saved.`);
}

function isoDay(wall: number): string {
  return new Date(wall).toISOString().slice(0, 10);
}
