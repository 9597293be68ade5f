import { describe, expect, it } from 'vitest';

import { describeEntry } from '../../../src/features/health/describe-entry.js';
import { SAMPLE_DELIVERIES } from '../../fixtures/deliveries.js';

const entryOf = (delivery: { id: string; event: string }) => ({
  deliveryId: delivery.id,
  event: delivery.event,
  rawBody: JSON.stringify(delivery),
});

describe('a held delivery described in one line', () => {
  it('tells each event apart by what it is about, always with its delivery id', () => {
    for (const delivery of Object.values(SAMPLE_DELIVERIES)) {
      const line = describeEntry(entryOf(delivery));
      expect(
        line.startsWith('Case') || line.startsWith('Session') || line.startsWith('Modcall') || line.startsWith('Shift'),
        line,
      ).toBe(true);
      expect(line.endsWith(` · delivery \`\` ${delivery.id} \`\``), line).toBe(true);
    }
    expect(describeEntry(entryOf(SAMPLE_DELIVERIES['case.voided']))).toContain(', voided by ');
    expect(describeEntry(entryOf(SAMPLE_DELIVERIES['modcall']))).toMatch(/^Modcall from /);
  });

  it('says when a delivery is not in the documented shape, or names only its id', () => {
    const broken = { id: 'dlv_broken', event: 'case.created', data: { case: { number: 'x' } } };
    expect(describeEntry(entryOf(broken))).toBe('not in the documented shape · delivery `` dlv_broken ``');
    const unknown = { id: 'dlv_new', event: 'something.new', data: {} };
    expect(describeEntry(entryOf(unknown))).toBe('delivery `` dlv_new ``');
  });
});
