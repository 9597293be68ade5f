/** Formatters per time zone: making one costs far more than using it, and there are a few hundred zones at most. */
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Whether `timeZone` is a time zone the runtime knows ("Europe/Berlin", "UTC"). */
export function isTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `timeZone` at `ms`: its date, weekday and hour. */
export function wallClock(ms: number, timeZone: string) {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(timeZone, format);
  }
  const parts = format.formatToParts(ms);
  const part = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/**
 * The date `timeZone`'s wall clock shows at `ms`, as that date's midnight in UTC: a day of the zone that code
 * reading dates in UTC (labels, weekdays) names right, and whose next day is always 24 h on.
 */
export function wallDate(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  return Date.UTC(wall.year, wall.month - 1, wall.day);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `ms` (negative west of Greenwich). */
function offsetAt(ms: number, timeZone: string): number {
  const wall = wallClock(ms, timeZone);
  const asUtc = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second);
  return asUtc - Math.floor(ms / 1000) * 1000;
}

/**
 * The instant `timeZone`'s wall clock shows `wall` (the wall clock's date and time written as if it were UTC, as
 * `Date.UTC` makes it). The offset is read at a first guess, then at the instant it gives (they differ only across
 * a change of offset): a time a change skips (spring) comes out an hour later, one it repeats (autumn) the first
 * time.
 */
export function instantOfWall(wall: number, timeZone: string): number {
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}
