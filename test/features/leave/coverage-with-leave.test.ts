import { describe, expect, it } from 'vitest';

import type { CoverageShortfall } from '../../../src/features/duty/index.js';
import { describeShortfall } from '../../../src/features/health/reported-findings.js';

const SHORTFALL: CoverageShortfall = {
  minimum: { staff: 3, afterMinutes: 10 },
  onShift: 1,
  since: Date.UTC(2026, 10, 23, 12),
  sessions: [{ server: '4821337', sessionId: 1, name: 'Main', startedAt: Date.UTC(2026, 10, 23, 11) }],
};

describe('the coverage alert with leave', () => {
  it('says when the staff on approved leave explain the shortfall, wholly or in part, and names them', () => {
    const explained = describeShortfall({ ...SHORTFALL, onLeave: ['500000000000000001', '500000000000000002'] });
    expect(explained.detail.split('\n')[1]).toBe(
      'Explained by leave: 2 staff are on approved leave (<@500000000000000001>, <@500000000000000002>).',
    );
    const partly = describeShortfall({ ...SHORTFALL, onLeave: ['500000000000000001'] });
    expect(partly.detail.split('\n')[1]).toBe(
      'Partly explained by leave: 1 staff is on approved leave (<@500000000000000001>).',
    );
    expect(describeShortfall({ ...SHORTFALL, onLeave: [] }).detail).not.toContain('leave');
  });
});
