import { fitLines } from '../../base/truncate-text.js';
import type { DaySeconds, TimeRange } from './store/record-queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Days a chart draws one by one; a longer period is drawn a week (from Monday, UTC) per bar. */
export const MOST_DAYS_DRAWN = 62;

/** One bar of the hours chart: a UTC day or week (its first day's midnight) and the seconds on shift in it. */
export interface HoursBucket {
  start: number;
  seconds: number;
}

/** What the hours chart and its text show: a bar per day or per week. */
export interface HoursPerPeriod {
  unit: 'day' | 'week';
  buckets: HoursBucket[];
}

/**
 * Every UTC day of the range up to today, with the seconds the record found on it (0 where none): the days a
 * chart of the period draws. A range with no start (all time) starts on the first day found.
 */
export function daysOfPeriod(range: TimeRange, now: number, found: readonly DaySeconds[]): DaySeconds[] {
  const seconds = new Map(found.map((day) => [day.day, day.seconds]));
  const first = range.from > 0 ? Math.floor(range.from / DAY_MS) * DAY_MS : found[0]?.day;
  if (first === undefined) return [];
  const last = Math.floor((Math.min(range.to, now + 1) - 1) / DAY_MS) * DAY_MS;
  const days: DaySeconds[] = [];
  for (let day = first; day <= last; day += DAY_MS) days.push({ day, seconds: seconds.get(day) ?? 0 });
  return days;
}

/** The days as a chart draws them: one bar a day, or a week (from Monday) a bar past {@link MOST_DAYS_DRAWN}. */
export function hoursPerPeriod(days: readonly DaySeconds[]): HoursPerPeriod {
  if (days.length <= MOST_DAYS_DRAWN) {
    return { unit: 'day', buckets: days.map(({ day, seconds }) => ({ start: day, seconds })) };
  }
  const buckets: HoursBucket[] = [];
  for (const { day, seconds } of days) {
    // getUTCDay: 0 is Sunday; Monday starts the week.
    const monday = day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MS;
    const last = buckets.at(-1);
    if (last && last.start === monday) last.seconds += seconds;
    else buckets.push({ start: monday, seconds });
  }
  return { unit: 'week', buckets };
}

/** Whether there is a picture to draw: more than one bar, and some time on shift. */
export function worthDrawing(hours: HoursPerPeriod): boolean {
  return hours.buckets.length > 1 && hours.buckets.some((bucket) => bucket.seconds > 0);
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** "3 Nov" (UTC): a day on a chart's axis. */
export function dayLabel(ms: number): string {
  const date = new Date(ms);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()] ?? '?'}`;
}

/** "Mon 3 Nov: 2.5 h" per day with time on shift, or "week of 3 Nov: 12.0 h"; within `max` characters. */
export function describeHoursPerPeriod(hours: HoursPerPeriod, max: number): string {
  const lines = hours.buckets
    .filter((bucket) => bucket.seconds > 0)
    .map((bucket) => {
      const when =
        hours.unit === 'day'
          ? `${WEEKDAYS[new Date(bucket.start).getUTCDay()] ?? '?'} ${dayLabel(bucket.start)}`
          : `week of ${dayLabel(bucket.start)}`;
      return `${when}: ${(bucket.seconds / 3600).toFixed(1)} h`;
    });
  return lines.length === 0 ? 'none' : fitLines(lines, max);
}
