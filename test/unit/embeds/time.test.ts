import { describe, expect, it } from 'vitest';

import { formatDuration, formatEventTime, toEmbedTimestamp } from '../../../src/embeds/time.js';

describe('formatDuration', () => {
  it.each([
    [0, '0 min'],
    [59, '0 min'],
    [60, '1 min'],
    [45 * 60, '45 min'],
    [3600, '1 h 00 min'],
    [2 * 3600 + 5 * 60, '2 h 05 min'],
    [23 * 3600 + 59 * 60 + 59, '23 h 59 min'],
    [86_400, '1 d 0 h 00 min'],
    [2 * 86_400 + 3 * 3600 + 4 * 60, '2 d 3 h 04 min'],
    [-30, '0 min'],
  ])('%i s is %s', (seconds, expected) => {
    expect(formatDuration(seconds)).toBe(expected);
  });
});

describe('formatEventTime', () => {
  it('writes absolute and relative Discord timestamps, rounding ms down to the second', () => {
    expect(formatEventTime(1_710_018_845_999)).toBe('<t:1710018845:f> (<t:1710018845:R>)');
  });
});

describe('toEmbedTimestamp', () => {
  it('gives ISO 8601 for an integer in ms', () => {
    expect(toEmbedTimestamp(1_710_018_845_000)).toBe('2024-03-09T21:14:05.000Z');
  });

  // Past year 9999 or before year 0 the ISO form has six digits and a sign, which is not RFC 3339.
  const outOfRange = [8.64e15, Number.MAX_SAFE_INTEGER, -62_198_755_200_001];
  it.each([undefined, '1710018845000', 1.5, Number.NaN, ...outOfRange])('gives nothing for %s', (value) => {
    expect(toEmbedTimestamp(value)).toBeUndefined();
  });
});
