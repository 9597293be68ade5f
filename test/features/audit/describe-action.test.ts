import { describe, expect, it } from 'vitest';

import { redactSecrets } from '../../../src/features/audit/describe-action.js';

describe('redactSecrets', () => {
  it('hides keys and tokens pasted anywhere, and leaves ids and words alone', () => {
    expect(redactSecrets('usk_live_0123456789abcdef')).toBe('[redacted]');
    expect(redactSecrets('key upk_ABCdef0123456789 here')).toBe('key [redacted] here');
    expect(redactSecrets('MTIzNDU2Nzg5MDEyMzQ1Njc4.GaBcDe.abcdefghijklmnopqrstuvwxyz012345')).toBe('[redacted]');
    expect(redactSecrets('whsec_0123456789abcdef0123456789abcdef01')).toBe('[redacted]');
    expect(redactSecrets('case.created')).toBe('case.created');
    expect(redactSecrets('1574596436992069638')).toBe('1574596436992069638');
  });
});
