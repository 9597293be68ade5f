import { describe, expect, it } from 'vitest';

import {
  hasControlCharacters,
  removeControlCharacters,
  removeEscapedControlCharacters,
} from '../../../src/base/control-characters.js';

describe('control characters', () => {
  it('are found and removed, tab and line breaks kept only when asked', () => {
    expect(hasControlCharacters('plain text é ✓')).toBe(false);
    expect(hasControlCharacters('tab\there')).toBe(true);
    expect(removeControlCharacters('a\u0000b\u0007c\td\ne\rf\u001fg')).toBe('abcdefg');
    expect(removeControlCharacters('a\u0000b\u0007c\td\ne\rf\u001fg', true)).toBe('abc\td\ne\rfg');
    // U+007F and above are not C0 controls: kept.
    expect(removeControlCharacters('del\u007f nbsp\u00a0')).toBe('del\u007f nbsp\u00a0');
  });

  it("leave a JSON text's strings, keys too, without them, however deep, escaped backslashes read as text", () => {
    const value = {
      'k\u0000ey': ['a\u0000b', { deep: 'x\u0001\u0008\u000b\u000c\u000e\u001fy' }],
      layout: 'tab\tline\ncr\r',
      escaped: 'a\\u0000 stays: the backslash is text',
      quote: 'say "\u0000"',
    };
    const json = JSON.stringify(value);
    expect(JSON.parse(removeEscapedControlCharacters(json))).toEqual({
      key: ['ab', { deep: 'xy' }],
      layout: 'tab\tline\ncr\r',
      escaped: 'a\\u0000 stays: the backslash is text',
      quote: 'say ""',
    });
    // Upper-case hex and the short escapes \b and \f.
    expect(JSON.parse(removeEscapedControlCharacters('["\\u001F\\u000B\\b\\f\\t\\u0009\\u000a"]'))).toEqual(['\t\t\n']);
    const nested = `${'['.repeat(20_000)}"\\u0000"${']'.repeat(20_000)}`;
    expect(removeEscapedControlCharacters(nested)).toBe(`${'['.repeat(20_000)}""${']'.repeat(20_000)}`);
    const clean = '{"a":"no escapes"}';
    expect(removeEscapedControlCharacters(clean)).toBe(clean);
  });
});
