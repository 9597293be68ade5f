import { describe, expect, it } from 'vitest';

import { formatWait, percentile } from '../../../src/features/record/describe-stats.js';
import { periodRange } from '../../../src/features/record/periods.js';

describe('the periods the record answers for', () => {
  // A Wednesday afternoon, UTC.
  const now = Date.UTC(2026, 10, 25, 15, 30);

  it('starts days and weeks in UTC, weeks on Monday, and ends at now (last week ends where this one starts)', () => {
    expect(periodRange('today', now)).toEqual({ from: Date.UTC(2026, 10, 25), to: now + 1, label: 'today (UTC)' });
    expect(periodRange('this-week', now).from).toBe(Date.UTC(2026, 10, 23));
    expect(periodRange('last-week', now)).toMatchObject({ from: Date.UTC(2026, 10, 16), to: Date.UTC(2026, 10, 23) });
    expect(periodRange('this-month', now).from).toBe(Date.UTC(2026, 10, 1));
    expect(periodRange('30-days', now).from).toBe(now - 30 * 86_400_000);
    expect(periodRange('all', now)).toMatchObject({ from: 0, label: 'all time' });
    // On a Sunday the week began six days before; on a Monday, that day.
    expect(periodRange('this-week', Date.UTC(2026, 10, 29, 23)).from).toBe(Date.UTC(2026, 10, 23));
    expect(periodRange('this-week', Date.UTC(2026, 10, 30, 1)).from).toBe(Date.UTC(2026, 10, 30));
  });

  it('reads medians and percentiles by nearest rank, and waits as staff say them', () => {
    expect(percentile([], 0.5)).toBeUndefined();
    expect(percentile([10], 0.9)).toBe(10);
    expect(percentile([1, 2, 3, 4], 0.5)).toBe(2);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.9)).toBe(9);
    expect([0, 45_000, 60_000, 200_000, 3_600_000, 3_900_000].map(formatWait)).toEqual([
      '0 s',
      '45 s',
      '1 min',
      '3 min 20 s',
      '1 h',
      '1 h 5 min',
    ]);
  });
});
