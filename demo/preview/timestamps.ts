/**
 * Discord's timestamp markup (`<t:SECONDS:STYLE>`) and embed timestamps, formatted as the English client shows
 * them. The preview runs on the machine of whoever watches it, so the process's own time zone is the reader's.
 */

/** The styles of `<t:…:STYLE>`; `f` is Discord's default. */
export const TIMESTAMP_STYLES = ['t', 'T', 'd', 'D', 'f', 'F', 'R'] as const;
export type TimestampStyle = (typeof TIMESTAMP_STYLES)[number];

export function isTimestampStyle(style: string): style is TimestampStyle {
  return (TIMESTAMP_STYLES as readonly string[]).includes(style);
}

interface Formatters {
  time: Intl.DateTimeFormat;
  longTime: Intl.DateTimeFormat;
  shortDate: Intl.DateTimeFormat;
  longDate: Intl.DateTimeFormat;
  weekday: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
}

const cache = new Map<string, Formatters>();

function formatters(timeZone: string | undefined): Formatters {
  const key = timeZone ?? '';
  let found = cache.get(key);
  if (!found) {
    const zone = timeZone === undefined ? {} : { timeZone };
    found = {
      time: new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', ...zone }),
      longTime: new Intl.DateTimeFormat('en-US', { hour: 'numeric', minute: '2-digit', second: '2-digit', ...zone }),
      shortDate: new Intl.DateTimeFormat('en-US', { month: '2-digit', day: '2-digit', year: 'numeric', ...zone }),
      longDate: new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', year: 'numeric', ...zone }),
      weekday: new Intl.DateTimeFormat('en-US', { weekday: 'long', ...zone }),
      // A calendar day, to tell "Today" from "Yesterday" in the reader's zone.
      day: new Intl.DateTimeFormat('en-CA', { year: 'numeric', month: '2-digit', day: '2-digit', ...zone }),
    };
    cache.set(key, found);
  }
  return found;
}

/** `<t:…:STYLE>` as Discord's English client shows it, e.g. `May 17, 2024 11:10 PM` (f) or `2 hours ago` (R). */
export function formatTimestamp(epochMs: number, style: TimestampStyle, now: number, timeZone?: string): string {
  const f = formatters(timeZone);
  const date = new Date(epochMs);
  switch (style) {
    case 't':
      return f.time.format(date);
    case 'T':
      return f.longTime.format(date);
    case 'd':
      return f.shortDate.format(date);
    case 'D':
      return f.longDate.format(date);
    case 'f':
      return `${f.longDate.format(date)} ${f.time.format(date)}`;
    case 'F':
      return `${f.weekday.format(date)}, ${f.longDate.format(date)} ${f.time.format(date)}`;
    case 'R':
      return formatRelative(epochMs, now);
  }
}

const RELATIVE = new Intl.RelativeTimeFormat('en', { numeric: 'always' });
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * `3 minutes ago`, `in 2 hours`: the unit switches where Discord's does (45 s, 45 min, 22 h, 26 d, 11 months).
 * The browser keeps these current with the same rule (public/preview.js).
 */
export function formatRelative(epochMs: number, now: number): string {
  const diff = epochMs - now;
  const abs = Math.abs(diff);
  const sign = diff < 0 ? -1 : 1;
  if (abs < 45 * SECOND) return RELATIVE.format(sign * Math.round(abs / SECOND), 'second');
  if (abs < 45 * MINUTE) return RELATIVE.format(sign * Math.max(1, Math.round(abs / MINUTE)), 'minute');
  if (abs < 22 * HOUR) return RELATIVE.format(sign * Math.max(1, Math.round(abs / HOUR)), 'hour');
  if (abs < 26 * DAY) return RELATIVE.format(sign * Math.max(1, Math.round(abs / DAY)), 'day');
  if (abs < 320 * DAY) return RELATIVE.format(sign * Math.max(1, Math.round(abs / (30 * DAY))), 'month');
  return RELATIVE.format(sign * Math.max(1, Math.round(abs / (365 * DAY))), 'year');
}

/** A message's or embed footer's time: `Today at 11:10 PM`, `Yesterday at 9:02 AM`, else `05/17/2024 11:10 PM`. */
export function formatCalendar(epochMs: number, now: number, timeZone?: string): string {
  const f = formatters(timeZone);
  const date = new Date(epochMs);
  const day = f.day.format(date);
  const time = f.time.format(date);
  if (day === f.day.format(new Date(now))) return `Today at ${time}`;
  if (day === f.day.format(new Date(now - DAY))) return `Yesterday at ${time}`;
  return `${f.shortDate.format(date)} ${time}`;
}
