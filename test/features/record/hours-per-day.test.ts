import { describe, expect, it } from 'vitest';

import {
  daysOfPeriod,
  describeHoursPerPeriod,
  hoursPerPeriod,
  worthDrawing,
} from '../../../src/features/record/hours-per-day.js';

const DAY = 86_400_000;
const NOV_1 = Date.UTC(2026, 10, 1);

describe('hours per day', () => {
  it('fills every day of the period up to today with what was found, 0 elsewhere', () => {
    const now = NOV_1 + 3 * DAY + 5_000;
    const days = daysOfPeriod({ from: NOV_1, to: now + 1 }, now, [{ day: NOV_1 + DAY, seconds: 3600 }]);
    expect(days).toEqual([
      { day: NOV_1, seconds: 0 },
      { day: NOV_1 + DAY, seconds: 3600 },
      { day: NOV_1 + 2 * DAY, seconds: 0 },
      { day: NOV_1 + 3 * DAY, seconds: 0 },
    ]);
    // All time starts on the first day found and ends today.
    const all = daysOfPeriod({ from: 0, to: Number.MAX_SAFE_INTEGER }, now, [{ day: NOV_1 + 2 * DAY, seconds: 60 }]);
    expect(all.map((day) => day.day)).toEqual([NOV_1 + 2 * DAY, NOV_1 + 3 * DAY]);
    expect(daysOfPeriod({ from: 0, to: Number.MAX_SAFE_INTEGER }, now, [])).toEqual([]);
    // Last week: Monday to Sunday, seven days.
    expect(daysOfPeriod({ from: NOV_1 - 6 * DAY, to: NOV_1 + DAY }, now, [])).toHaveLength(7);
  });

  it('draws nothing for one day or no time on shift', () => {
    expect(worthDrawing(hoursPerPeriod([{ day: NOV_1, seconds: 3600 }]))).toBe(false);
    expect(worthDrawing(hoursPerPeriod([0, 1, 2].map((i) => ({ day: NOV_1 + i * DAY, seconds: 0 }))))).toBe(false);
    expect(worthDrawing(hoursPerPeriod([0, 1].map((i) => ({ day: NOV_1 + i * DAY, seconds: i }))))).toBe(true);
  });

  it('sums a long period per week from Monday, and says the same numbers in text', () => {
    // 1 Nov 2026 is a Sunday: its week began on Monday 26 Oct.
    const days = Array.from({ length: 70 }, (_, i) => ({ day: NOV_1 + i * DAY, seconds: 3600 }));
    const weeks = hoursPerPeriod(days);
    expect(weeks.unit).toBe('week');
    expect(weeks.buckets[0]).toEqual({ start: NOV_1 - 6 * DAY, seconds: 3600 });
    expect(weeks.buckets[1]).toEqual({ start: NOV_1 + DAY, seconds: 7 * 3600 });
    expect(weeks.buckets.reduce((sum, week) => sum + week.seconds, 0)).toBe(70 * 3600);
    expect(describeHoursPerPeriod(weeks, 2000).split('\n').slice(0, 2)).toEqual([
      'week of 26 Oct: 1.0 h',
      'week of 2 Nov: 7.0 h',
    ]);

    const short = hoursPerPeriod([
      { day: NOV_1, seconds: 0 },
      { day: NOV_1 + DAY, seconds: 9000 },
    ]);
    expect(short.unit).toBe('day');
    expect(describeHoursPerPeriod(short, 2000)).toBe('Mon 2 Nov: 2.5 h');
    const many = hoursPerPeriod(Array.from({ length: 60 }, (_, i) => ({ day: NOV_1 + i * DAY, seconds: 3600 })));
    const text = describeHoursPerPeriod(many, 200);
    expect(text.length).toBeLessThanOrEqual(200);
    expect(text).toMatch(/\n… and \d+ more$/);
  });
});
