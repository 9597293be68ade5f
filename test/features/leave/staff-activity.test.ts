import { describe, expect, it } from 'vitest';

import { describeActivity } from '../../../src/features/leave/describe-activity.js';
import { describeMembersActivity, type ActivityInput } from '../../../src/features/leave/staff-activity.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const FROM = Date.UTC(2026, 10, 16);
const RANGE = { from: FROM, to: FROM + 7 * DAY };
const NOW = FROM + 7 * DAY - 1;
const ANA = '500000000000000001';
const BEN = '500000000000000002';
const CARL = '500000000000000003';
const ROLE = '600000000000000001';

const input = (overrides: Partial<ActivityInput> = {}): ActivityInput => ({
  activity: {
    shifts: [
      // Ana: 3 h, a case at 0:30 and a claim at 2:50: a stretch of 2 h 20 min with no action.
      { memberId: ANA, startedAt: FROM + HOUR, endedAt: FROM + 4 * HOUR, seconds: 3 * 3600 },
      // Ben: 2 h with a case every 30 minutes: nothing to look at.
      { memberId: BEN, startedAt: FROM + HOUR, endedAt: FROM + 3 * HOUR, seconds: 2 * 3600 },
      // Carl: a shift started days ago and never ended.
      { memberId: CARL, startedAt: FROM, endedAt: null, seconds: null },
    ],
    cases: [
      { memberId: ANA, at: FROM + HOUR + 30 * MIN },
      ...[30, 60, 90].map((m) => ({ memberId: BEN, at: FROM + HOUR + m * MIN })),
    ],
    cards: [
      { at: FROM + 3 * HOUR + 45 * MIN, claimedBy: ANA, claimedAt: FROM + 3 * HOUR + 50 * MIN },
      // Called while Ana and Ben were on shift, claimed by nobody.
      { at: FROM + 2 * HOUR, claimedBy: null, claimedAt: null },
    ],
  },
  leave: [],
  quotas: [{ roleId: ROLE, hours: 2, per: 'week' }],
  reduced: new Map(),
  rolesOf: () => [ROLE],
  range: RANGE,
  now: NOW,
  ...overrides,
});

describe('/staff activity from the record', () => {
  it("counts each member's hours, shifts, cases and claims, and flags idle stretches, unclaimed calls and shifts never ended", () => {
    const members = describeMembersActivity(input());
    expect(members.map((m) => [m.memberId, m.seconds, m.shifts, m.cases, m.claims])).toEqual([
      [ANA, 3 * 3600, 1, 1, 1],
      [BEN, 2 * 3600, 1, 3, 0],
      // A shift never ended counts no time.
      [CARL, 0, 1, 0, 0],
    ]);
    const [ana, ben, carl] = members;
    expect(ana).toMatchObject({
      idleStretches: 1,
      longestIdleMs: 2 * HOUR + 20 * MIN,
      unclaimedOnShift: 1,
      neverEnded: 0,
    });
    expect(ben).toMatchObject({ idleStretches: 0, unclaimedOnShift: 1, neverEnded: 0 });
    expect(carl).toMatchObject({ neverEnded: 1 });
    expect(ana?.quota).toEqual({ status: 'met', targetHours: 2, leave: null });
    expect(carl?.quota).toEqual({ status: 'missed', targetHours: 2, leave: null });
    const text = describeActivity(members, 'this week', false).description ?? '';
    expect(text.split('\n')[0]).toBe('3 members, 3 with something to look at.');
    expect(text).toContain(
      `<@${ANA}> 3.0 h · 1 shift · 1 case · 1 claim · ✅ quota 2 h\n  ⚠️ 1 stretch on shift with no action (longest 2 h 20 min) · 1 modcall left unclaimed on shift`,
    );
    expect(text).toContain(`<@${CARL}> 0.0 h · 1 shift · 0 cases · 0 claims · ❌ quota 2 h\n  ⚠️ 1 shift never ended`);
  });

  it('takes leave into account: on leave excused, reduced activity held to the reduced quota, a member on leave listed', () => {
    const dave = '500000000000000004';
    const members = describeMembersActivity(
      input({
        reduced: new Map([[ROLE, 4]]),
        quotas: [{ roleId: ROLE, hours: 14, per: 'week' }],
        leave: [
          { memberId: CARL, number: 1, kind: 'leave', startsAt: FROM + DAY, endsAt: FROM + 3 * DAY },
          { memberId: ANA, number: 2, kind: 'reduced', startsAt: FROM, endsAt: FROM + 7 * DAY },
          { memberId: dave, number: 3, kind: 'leave', startsAt: FROM, endsAt: FROM + 7 * DAY },
        ],
      }),
    );
    const quota = (id: string) => members.find((m) => m.memberId === id)?.quota;
    expect(quota(CARL)).toEqual({ status: 'excused', targetHours: null, leave: 'leave' });
    expect(quota(dave)).toEqual({ status: 'excused', targetHours: null, leave: 'leave' });
    expect(quota(ANA)).toEqual({ status: 'missed', targetHours: 4, leave: 'reduced' });
    expect(quota(BEN)).toEqual({ status: 'missed', targetHours: 14, leave: null });
  });
});
