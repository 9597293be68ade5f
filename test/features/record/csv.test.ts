import { describe, expect, it } from 'vitest';

import { csvField, csvHeader, csvRow } from '../../../src/features/record/csv.js';

describe('the CSV writer', () => {
  it('ends every row with CRLF and leaves plain text as it is', () => {
    expect(csvRow([{ text: 'warn' }, { number: 42 }, { text: 'Mira' }])).toBe('warn,42,Mira\r\n');
    expect(csvHeader(['server', 'number'])).toBe('server,number\r\n');
  });

  it('quotes a field with a comma, a quote, CR or LF, and doubles its quotes', () => {
    expect(csvField({ text: 'griefing, then spawn killing' })).toBe('"griefing, then spawn killing"');
    expect(csvField({ text: 'said "gg ez"' })).toBe('"said ""gg ez"""');
    expect(csvField({ text: 'line one\nline two' })).toBe('"line one\nline two"');
    expect(csvField({ text: 'line one\r\nline two' })).toBe('"line one\r\nline two"');
    expect(csvField({ text: 'carriage\rreturn' })).toBe('"carriage\rreturn"');
    expect(csvField({ text: '"' })).toBe('""""');
  });

  it('writes unicode as it is (the file is UTF-8)', () => {
    expect(csvField({ text: 'Zoë_ünïcødé 🚗 日本' })).toBe('Zoë_ünïcødé 🚗 日本');
  });

  it("marks text a spreadsheet would run as a formula with a leading ', and nothing else", () => {
    expect(csvField({ text: '=HYPERLINK("http://evil.test")' })).toBe('"\'=HYPERLINK(""http://evil.test"")"');
    expect(csvField({ text: '+1' })).toBe("'+1");
    expect(csvField({ text: '-spam' })).toBe("'-spam");
    expect(csvField({ text: '@everyone' })).toBe("'@everyone");
    expect(csvField({ text: '\tcmd' })).toBe("'\tcmd");
    expect(csvField({ text: 'a=b' })).toBe('a=b');
    // Numbers and ids are not text: a negative number stays a number.
    expect(csvField({ number: -3 })).toBe('-3');
  });

  it('always quotes ids, so a spreadsheet never turns them into numbers', () => {
    expect(csvField({ id: '284756102938475610' })).toBe('"284756102938475610"');
    expect(csvField({ id: '2391045817' })).toBe('"2391045817"');
    // Quotes alone do not keep a spreadsheet from running a formula.
    expect(csvField({ id: '=1+1' })).toBe('"\'=1+1"');
  });

  it('writes times as ISO 8601 in UTC, and what is unknown as an empty field', () => {
    expect(csvField({ time: Date.UTC(2026, 10, 25, 12) })).toBe('2026-11-25T12:00:00.000Z');
    expect(csvRow([{ text: null }, { id: null }, { time: null }, { number: undefined }, { text: '' }])).toBe(
      ',,,,\r\n',
    );
  });
});
