import { describe, expect, it } from 'vitest';

import { createSecretBox } from '../../../src/store/secret-box.js';

describe('the secret box', () => {
  const box = createSecretBox('a-long-enough-secret-key');

  it('seals so the stored value does not contain the secret, and opens it again', () => {
    const sealed = box.seal('usk_live_abcdef');
    expect(sealed).not.toContain('usk_live_abcdef');
    expect(sealed).not.toBe(box.seal('usk_live_abcdef'));
    expect(box.open(sealed)).toBe('usk_live_abcdef');
  });

  it('refuses a value sealed with another key, with a message that holds no secret', () => {
    const other = createSecretBox('another-long-secret-key');
    expect(() => other.open(box.seal('usk_live_abcdef'))).toThrow(/SECRET_KEY differs/);
  });

  it('refuses a tampered value', () => {
    const sealed = box.seal('usk_live_abcdef');
    const tampered = sealed.slice(0, -2) + (sealed.endsWith('A') ? 'BB' : 'AA');
    expect(() => box.open(tampered)).toThrow();
  });

  it('without a key stores values as they are, and says so when it meets a sealed one', () => {
    const plain = createSecretBox(undefined);
    expect(plain.seal('x')).toBe('x');
    expect(() => plain.open(box.seal('x'))).toThrow(/SECRET_KEY is not set/);
  });
});
