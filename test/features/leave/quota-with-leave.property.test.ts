import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import { describeDigest } from '../../../src/features/digest/describe-digest.js';
import { quotaResults } from '../../../src/features/digest/quota-report.js';
import type { Quota } from '../../../src/features/digest/store/digests.js';
import type { MemberLeave } from '../../../src/features/leave/index.js';
import type { Standing, TimeRange } from '../../../src/features/record/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const WEEK_END = Date.UTC(2026, 10, 30);
const WEEK: TimeRange = { from: WEEK_END - 7 * DAY, to: WEEK_END };
const ROLE = '600000000000000001';
const MEMBERS = ['500000000000000001', '500000000000000002', '500000000000000003', '500000000000000004'];

interface Case {
  /** Each member's seconds on shift in the week (the quota is weekly). */
  seconds: number[];
  quota: Quota & { reducedHours?: number };
  leave: MemberLeave[];
}

/** Leave around the week: before it, across its start or end, inside it, after it. */
const leaveArb = fc.record({
  memberId: fc.constantFrom(...MEMBERS),
  number: fc.nat(1000),
  kind: fc.constantFrom<MemberLeave['kind']>('leave', 'reduced'),
  startDay: fc.integer({ min: -10, max: 10 }),
  days: fc.integer({ min: 1, max: 6 }),
});

const caseArb: fc.Arbitrary<Case> = fc.record({
  seconds: fc.array(fc.integer({ min: 0, max: 30 * 3600 }), { minLength: MEMBERS.length, maxLength: MEMBERS.length }),
  quota: fc.record(
    {
      roleId: fc.constant(ROLE),
      hours: fc.integer({ min: 1, max: 30 }),
      per: fc.constant<'week'>('week'),
      reducedHours: fc.integer({ min: 0, max: 10 }),
    },
    { requiredKeys: ['roleId', 'hours', 'per'] },
  ),
  leave: fc.array(
    leaveArb.map(({ startDay, days, ...rest }) => ({
      ...rest,
      startsAt: WEEK.from + startDay * DAY,
      endsAt: WEEK.from + (startDay + days) * DAY,
    })),
    { maxLength: 6 },
  ),
});

/**
 * The plain model of /quota with /leave: a member with any day of leave in the week is excused; otherwise one
 * with any day of reduced activity is to reach the reduced hours (excused when the quota has none); otherwise
 * the quota's hours. Written from the documentation, member by member, day by day.
 */
function modelStatus(c: Case, memberIndex: number): 'met' | 'missed' | 'excused' {
  const memberId = MEMBERS[memberIndex] ?? '';
  const seconds = c.seconds[memberIndex] ?? 0;
  let onLeave = false;
  let reduced = false;
  for (let day = WEEK.from; day < WEEK.to; day += DAY) {
    for (const l of c.leave) {
      if (l.memberId !== memberId || l.startsAt >= day + DAY || l.endsAt <= day) continue;
      if (l.kind === 'leave') onLeave = true;
      else reduced = true;
    }
  }
  if (onLeave) return 'excused';
  const hours = reduced ? c.quota.reducedHours : c.quota.hours;
  if (hours === undefined) return 'excused';
  return seconds >= hours * 3600 ? 'met' : 'missed';
}

async function digestOf(c: Case) {
  const standings: Standing[] = MEMBERS.map((memberId, i) => ({ memberId, name: null, value: c.seconds[i] ?? 0 }));
  const record = {
    // Every member was on shift in the last 90 days, and holds the role: the quota concerns each of them.
    leaderboard: (_guildId: string, _kind: string, range: TimeRange) =>
      Promise.resolve(range.from < WEEK.from ? standings.map((s) => ({ ...s, value: s.value + 1 })) : standings),
  };
  const leave = {
    // As the store answers: the approved leave overlapping the range.
    leaveIn: (_guildId: string, from: number, to: number) =>
      Promise.resolve(c.leave.filter((l) => l.startsAt < to && l.endsAt > from)),
    reducedQuotasOf: () =>
      Promise.resolve(new Map(c.quota.reducedHours === undefined ? [] : [[ROLE, c.quota.reducedHours]])),
  };
  // The role's quota as the digest's store keeps it; its reduced hours are kept with leave.
  const quota: Quota = { roleId: c.quota.roleId, hours: c.quota.hours, per: c.quota.per };
  return quotaResults(record, leave, () => Promise.resolve(true), 'guild', [quota], WEEK);
}

describe('quotas with leave', () => {
  it('excuse a member on leave, hold one on reduced activity to the reduced hours, as the plain model says', async () => {
    await fc.assert(
      fc.asyncProperty(caseArb, async (c) => {
        const [result] = await digestOf(c);
        const byMember = new Map(result?.members.map((m) => [m.memberId, m]));
        MEMBERS.forEach((memberId, i) => {
          const status = modelStatus(c, i);
          expect(byMember.get(memberId)?.standing.status, memberId).toBe(status);
          expect(byMember.get(memberId)?.met).toBe(status !== 'missed');
        });
        // The digest's line counts them as the model does: met of those not excused, the excused apart.
        const statuses = MEMBERS.map((_, i) => modelStatus(c, i));
        const met = statuses.filter((s) => s === 'met').length;
        const excused = statuses.filter((s) => s === 'excused').length;
        const embed = describeDigest(
          {
            week: WEEK,
            timeZone: 'UTC',
            lateMs: 0,
            shifts: [],
            quotas: result ? [result] : [],
            cases: [],
            moderators: [],
            modcalls: { calls: 0, cards: 0, claimed: 0, resolved: 0, toClaimMs: [], toResolveMs: [], claimers: [] },
            sessions: { sessions: 0, seconds: 0, peakPlayers: null },
            days: [],
          } as never,
          false,
        );
        const quotas = embed.fields?.find((field) => field.name === 'Quotas')?.value ?? '';
        expect(quotas.split('\n')[0]).toBe(
          `<@&${ROLE}>: ${c.quota.hours} h a week, this week: ${met} of ${MEMBERS.length - excused} met` +
            (excused > 0 ? `, ${excused} excused (leave)` : ''),
        );
        expect(quotas.split('\n').filter((line) => line.startsWith('🌴'))).toHaveLength(excused);
      }),
      { numRuns: 300 },
    );
  });
});
