import { describe, expect, it } from 'vitest';

import { isTimeZone } from '../../../src/base/time-zone.js';
import { nextDigestAt } from '../../../src/features/digest/weekly-schedule.js';

const MONDAY = 1;
const SUNDAY = 0;

describe('when a weekly digest is due', () => {
  it('is the next given weekday and hour on the wall clock of the time zone', () => {
    // Wednesday 25 Nov 2026, 12:00 UTC: 13:00 in Berlin (UTC+1 in winter).
    const now = Date.UTC(2026, 10, 25, 12);
    expect(new Date(nextDigestAt(MONDAY, 18, 'Europe/Berlin', now)).toISOString()).toBe('2026-11-30T17:00:00.000Z');
    expect(new Date(nextDigestAt(MONDAY, 18, 'UTC', now)).toISOString()).toBe('2026-11-30T18:00:00.000Z');
    // New York is UTC-5 in November: Monday 18:00 there is 23:00 UTC.
    expect(new Date(nextDigestAt(MONDAY, 18, 'America/New_York', now)).toISOString()).toBe('2026-11-30T23:00:00.000Z');
    // Later today (Wednesday 20:00 in Berlin), not next week.
    expect(new Date(nextDigestAt(3, 20, 'Europe/Berlin', now)).toISOString()).toBe('2026-11-25T19:00:00.000Z');
    // Exactly at the hour: the next week's.
    const due = Date.UTC(2026, 10, 30, 17);
    expect(nextDigestAt(MONDAY, 18, 'Europe/Berlin', due)).toBe(due + 7 * 86_400_000);
  });

  it('keeps the wall-clock hour across a change of offset (the week is then an hour shorter or longer)', () => {
    // Berlin moves to summer time on Sunday 28 March 2027: Monday 18:00 is 17:00 UTC before, 16:00 UTC after.
    const before = nextDigestAt(MONDAY, 18, 'Europe/Berlin', Date.UTC(2027, 2, 20));
    expect(new Date(before).toISOString()).toBe('2027-03-22T17:00:00.000Z');
    expect(new Date(nextDigestAt(MONDAY, 18, 'Europe/Berlin', before)).toISOString()).toBe('2027-03-29T16:00:00.000Z');
    // 02:00 on the Sunday of the change does not exist in Berlin: 03:00 summer time, 01:00 UTC.
    const skipped = nextDigestAt(SUNDAY, 2, 'Europe/Berlin', Date.UTC(2027, 2, 27));
    expect(new Date(skipped).toISOString()).toBe('2027-03-28T01:00:00.000Z');
  });

  it('knows a time zone from a made-up one', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
