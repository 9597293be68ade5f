import { describe, expect, it } from 'vitest';

import { parseRetryAfter } from '../../../src/upstream/retry-after.js';

const now = Date.UTC(2030, 0, 1, 12, 0, 0);

describe('parseRetryAfter', () => {
  it('reads whole seconds', () => {
    expect(parseRetryAfter('42', now)).toBe(42);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date as seconds from now, rounding up, never negative', () => {
    expect(parseRetryAfter('Tue, 01 Jan 2030 12:01:30 GMT', now)).toBe(90);
    expect(parseRetryAfter(new Date(now + 1_500).toUTCString(), now - 400)).toBe(2);
    expect(parseRetryAfter('Mon, 31 Dec 2029 12:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('Tuesday, 01-Jan-30 12:00:10 GMT', now)).toBe(10);
  });

  it('takes a wait of more than an hour for an hour, so no timer overflows', () => {
    expect(parseRetryAfter('3600', now)).toBe(3600);
    expect(parseRetryAfter('3601', now)).toBe(3600);
    expect(parseRetryAfter('9999999999', now)).toBe(3600);
    expect(parseRetryAfter('Wed, 01 Jan 2031 12:00:00 GMT', now)).toBe(3600);
  });

  it('gives undefined for a missing or unreadable header rather than a guess', () => {
    for (const header of [null, undefined, '', 'soon', '-5', '1.5', '2030-01-01', 'Tue, 99 Foo 2030 25:61:00 GMT']) {
      expect(parseRetryAfter(header, now)).toBeUndefined();
    }
  });
});
