import { describe, expect, it } from 'vitest';

import { describeActivity, describeActivityShort } from '../../../src/features/leave/describe-activity.js';
import type { MemberActivity } from '../../../src/features/leave/staff-activity.js';

const HOUR = 3_600;

function member(n: number, change: Partial<MemberActivity> = {}): MemberActivity {
  return {
    memberId: `50000000000000000${n}`,
    seconds: 2 * HOUR,
    shifts: 2,
    cases: 2,
    claims: 2,
    quota: null,
    idleStretches: 0,
    longestIdleMs: 0,
    unclaimedOnShift: 0,
    neverEnded: 0,
    ...change,
  };
}

describe("/staff activity's answer", () => {
  it('says so when nobody was active', () => {
    expect(describeActivity([], 'this week', false).description).toBe(
      'Nobody had a shift, a case or a claim in this period.',
    );
  });

  it('gives each member their figures, quota and flags, in the singular where one', () => {
    const members = [
      member(1, {
        seconds: HOUR,
        shifts: 1,
        cases: 1,
        claims: 1,
        quota: { status: 'met', targetHours: 1, leave: null },
        idleStretches: 1,
        longestIdleMs: 90 * 60_000,
        unclaimedOnShift: 1,
        neverEnded: 1,
      }),
      member(2, {
        quota: { status: 'missed', targetHours: 4, leave: 'reduced' },
        idleStretches: 2,
        unclaimedOnShift: 3,
        neverEnded: 2,
      }),
      member(3, { quota: { status: 'excused', targetHours: null, leave: 'leave' } }),
      member(4, { quota: { status: 'excused', targetHours: null, leave: 'reduced' } }),
    ];
    const text = describeActivity(members, 'this week', true).description ?? '';
    expect(text).toContain('4 members, 2 with something to look at. (Only the first 100 were looked up for the role.)');
    expect(text).toContain('1 shift · 1 case · 1 claim · ✅ quota 1 h');
    expect(text).toContain('1 stretch on shift with no action');
    expect(text).toContain('1 modcall left unclaimed on shift · 1 shift never ended');
    expect(text).toContain('2 shifts · 2 cases · 2 claims · ❌ reduced quota 4 h');
    expect(text).toContain('2 stretches on shift with no action');
    expect(text).toContain('3 modcalls left unclaimed on shift · 2 shifts never ended');
    expect(text).toContain('🌴 excused (on leave)');
    expect(text).toContain('🌴 excused (reduced activity)');
  });

  it("carries the digest's short version: the flagged, the first five named", () => {
    const members = Array.from({ length: 8 }, (_, n) => member(n + 1, { neverEnded: n < 7 ? 1 : 0 }));
    const text = describeActivityShort(members);
    expect(text.split('\n')[0]).toBe('8 active, 7 with something to look at (/staff activity).');
    expect(text.match(/^⚠️ /gm)).toHaveLength(5);
    expect(text).toContain('… and 2 more');
    expect(describeActivityShort([member(1)])).toBe('1 active, 0 with something to look at (/staff activity).');
  });
});
