import { describe, expect, it } from 'vitest';

import { evidenceTextOf, MAX_EVIDENCE_TEXT, recordUpdateOf } from '../../../src/upstream/record-update.js';

describe("a case's evidence as the record keeps it", () => {
  it('keeps any JSON value exactly as given, and nothing for none', () => {
    const given = { clips: ['https://cdn.example.test/1.mp4', 'javascript:alert(1)'], note: 'seen "twice"\n' };
    expect(JSON.parse(evidenceTextOf(given) ?? 'null')).toEqual(given);
    expect(evidenceTextOf('https://cdn.example.test/a.png')).toBe('"https://cdn.example.test/a.png"');
    expect(evidenceTextOf(null)).toBeUndefined();
    expect(evidenceTextOf(undefined)).toBeUndefined();
  });

  it('cuts evidence longer than it keeps, never half a character', () => {
    const long = evidenceTextOf(['x'.repeat(MAX_EVIDENCE_TEXT * 2)]) ?? '';
    expect(long.length).toBe(MAX_EVIDENCE_TEXT);
    // The cut falls inside an emoji (two UTF-16 units): the column keeps the text before it.
    const emoji = evidenceTextOf('😀'.repeat(MAX_EVIDENCE_TEXT)) ?? '';
    expect(emoji.length).toBe(MAX_EVIDENCE_TEXT - 1);
    expect(emoji.endsWith('😀')).toBe(true);
  });

  it("reads it from a case.created's body, and a case.voided tells none", () => {
    const envelope = { id: 'd1', server: '1', at: 5_000 };
    const evidence = ['https://cdn.example.test/1.mp4'];
    expect(
      recordUpdateOf({ ...envelope, event: 'case.created', data: { case: { number: 7, evidence } } }),
    ).toMatchObject({ kind: 'case', number: 7, evidence: JSON.stringify(evidence) });
    const voided = recordUpdateOf({
      ...envelope,
      event: 'case.voided',
      data: { case: { number: 7, voidedAt: 6_000 } },
    });
    expect(voided).not.toHaveProperty('evidence');
  });
});
