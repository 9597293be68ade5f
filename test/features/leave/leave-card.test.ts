import { describe, expect, it } from 'vitest';

import { describeState, kindName, renderLeaveCard } from '../../../src/features/leave/leave-card.js';
import type { LeaveRequest } from '../../../src/features/leave/store/leave-store.js';

const DAY = 86_400_000;
const START = Date.UTC(2026, 11, 1);
const MANAGER = '500000000000000002';

function request(change: Partial<LeaveRequest> = {}): LeaveRequest {
  return {
    guildId: '100000000000000001',
    number: 4,
    memberId: '500000000000000001',
    kind: 'leave',
    startsAt: START,
    endsAt: START + 7 * DAY,
    plannedEnd: START + 7 * DAY,
    reason: 'exams',
    askedAt: START - DAY,
    state: 'approved',
    decidedBy: MANAGER,
    decidedAt: START - DAY,
    card: null,
    work: null,
    tryAt: null,
    failures: 0,
    ...change,
  };
}

describe("a leave request's card", () => {
  it('says where the request stands, before, during, after and when ended early', () => {
    expect(describeState(request({ state: 'pending', decidedBy: null }), START)).toBe('Waiting for a leave manager');
    expect(describeState(request({ state: 'denied' }), START)).toBe(`Denied by <@${MANAGER}>`);
    expect(describeState(request({ state: 'denied', decidedBy: null }), START)).toBe('Denied by <@?>');
    expect(describeState(request({ state: 'cancelled' }), START)).toBe('Cancelled by its member');
    expect(describeState(request(), START - DAY)).toMatch(
      new RegExp(`^Approved, starts <t:\\d+:D> \\(approved by <@${MANAGER}>\\)$`),
    );
    expect(describeState(request(), START + DAY)).toBe(`Under way (approved by <@${MANAGER}>)`);
    expect(describeState(request(), START + 8 * DAY)).toBe(`Over (approved by <@${MANAGER}>)`);
    expect(describeState(request({ endsAt: START + 2 * DAY }), START + 3 * DAY)).toMatch(
      /^Ended early <t:\d+:D>, approved by/,
    );
  });

  it('carries Approve and Deny only while pending, and names the kind', () => {
    expect(renderLeaveCard(request({ state: 'pending', decidedBy: null }), START).components).toHaveLength(1);
    expect(renderLeaveCard(request(), START).components).toEqual([]);
    expect(kindName({ kind: 'leave' })).toBe('Leave of absence');
    expect(kindName({ kind: 'reduced' })).toBe('Reduced activity');
    const card = renderLeaveCard(request({ kind: 'reduced', reason: '' }), START);
    expect(card.embeds[0]?.title).toBe('Reduced activity · request #4');
    expect(card.embeds[0]?.fields?.find((field) => field.name === 'Reason')?.value).toBe('—');
  });
});
