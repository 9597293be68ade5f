import type { Quota } from '../digest/index.js';
import { SHIFT_NEVER_ENDED_AFTER_MS } from '../duty/index.js';
import type { RangeActivity, TimeRange } from '../record/index.js';
import { judgeQuota, type QuotaStanding } from './quota-with-leave.js';
import type { MemberLeave } from './store/leave-store.js';

/** On shift this long with no case made and no modcall claimed is a stretch worth a look. */
export const IDLE_STRETCH_MS = 60 * 60 * 1000;
/** A modcall not claimed within this is left unclaimed (by whoever was on shift when it came). */
export const UNCLAIMED_AFTER_MS = 10 * 60 * 1000;
const WEEK_MS = 7 * 24 * 60 * 60 * 1000;
/** A calendar month, on average: a monthly quota over another period is read pro rata. */
const MONTH_MS = (365.25 / 12) * 24 * 60 * 60 * 1000;

/** One member's activity over a period: their figures, their quota with leave, and what needs a look. */
export interface MemberActivity {
  memberId: string;
  seconds: number;
  shifts: number;
  cases: number;
  claims: number;
  /** Their quota for the period (the strictest of their roles', pro rata) with leave accounted; none: no quota. */
  quota: QuotaStanding | null;
  /** Stretches on shift of {@link IDLE_STRETCH_MS} or more with no case and no claim, and the longest. */
  idleStretches: number;
  longestIdleMs: number;
  /** Modcalls that came while they were on shift and were not claimed within {@link UNCLAIMED_AFTER_MS}. */
  unclaimedOnShift: number;
  /** Their shifts open past the "never ended" limit. */
  neverEnded: number;
}

/** What one period's activity is judged with. */
export interface ActivityInput {
  activity: RangeActivity;
  /** The approved leave overlapping the period. */
  leave: readonly MemberLeave[];
  quotas: readonly Quota[];
  /** Reduced quotas by role. */
  reduced: ReadonlyMap<string, number>;
  /** Each member's roles among the quotas' (absent: not known, no quota). */
  rolesOf(memberId: string): readonly string[];
  range: TimeRange;
  now: number;
}

/**
 * Each member's activity over the range, from the record's rows: hours and shifts (shifts begun in it), cases,
 * modcall claims, their quota pro rata with leave taken into account, and the flags that need no in-game message.
 * Members with anything in the range (or on leave in it) are listed, most hours first.
 */
export function describeMembersActivity(input: ActivityInput): MemberActivity[] {
  return judgeQuotas(tallyActivity(input), input);
}

/** Each member's figures and flags over the range, most hours first; their quotas not judged yet (null). */
export function tallyActivity(input: Omit<ActivityInput, 'quotas' | 'reduced' | 'rolesOf'>): MemberActivity[] {
  const { activity, now } = input;
  const members = new Map<string, MemberActivity>();
  const of = (memberId: string) => {
    let member = members.get(memberId);
    if (!member) {
      member = {
        memberId,
        seconds: 0,
        shifts: 0,
        cases: 0,
        claims: 0,
        quota: null,
        idleStretches: 0,
        longestIdleMs: 0,
        unclaimedOnShift: 0,
        neverEnded: 0,
      };
      members.set(memberId, member);
    }
    return member;
  };
  const actions = new Map<string, number[]>();
  const act = (memberId: string, at: number) => {
    const times = actions.get(memberId);
    if (times) times.push(at);
    else actions.set(memberId, [at]);
  };
  for (const c of activity.cases) {
    of(c.memberId).cases += 1;
    act(c.memberId, c.at);
  }
  for (const card of activity.cards) {
    if (card.claimedBy === null || card.claimedAt === null) continue;
    of(card.claimedBy).claims += 1;
    act(card.claimedBy, card.claimedAt);
  }
  // A shift's time: its own length, or, running, until now; past the limit it never ended and counts nothing.
  const spans: Array<{ memberId: string; from: number; to: number }> = [];
  for (const shift of activity.shifts) {
    const member = of(shift.memberId);
    member.shifts += 1;
    const end = shift.endedAt ?? now;
    if (shift.endedAt === null && now - shift.startedAt > SHIFT_NEVER_ENDED_AFTER_MS) {
      member.neverEnded += 1;
      continue;
    }
    member.seconds += shift.seconds ?? Math.max(0, Math.floor((end - shift.startedAt) / 1000));
    spans.push({ memberId: shift.memberId, from: shift.startedAt, to: end });
  }
  for (const times of actions.values()) times.sort((a, b) => a - b);
  for (const span of spans) {
    const member = of(span.memberId);
    const inside = actionsWithin(actions.get(span.memberId) ?? [], span.from, span.to);
    let last = span.from;
    for (const at of [...inside, span.to]) {
      const gap = at - last;
      if (gap >= IDLE_STRETCH_MS) member.idleStretches += 1;
      member.longestIdleMs = Math.max(member.longestIdleMs, gap);
      last = at;
    }
  }
  // The calls left unclaimed, against the shifts running when each came: a sweep over both in time order, so a
  // month of calls and shifts costs their sorting, not their product.
  const unclaimed = activity.cards
    .filter((card) => !(card.claimedAt !== null && card.claimedAt - card.at <= UNCLAIMED_AFTER_MS))
    .filter((card) => now - card.at >= UNCLAIMED_AFTER_MS)
    .map((card) => card.at)
    .sort((a, b) => a - b);
  const byStart = [...spans].sort((a, b) => a.from - b.from);
  let running: typeof spans = [];
  let next = 0;
  for (const at of unclaimed) {
    while (next < byStart.length && (byStart[next]?.from ?? Infinity) <= at)
      running.push(byStart[next++] as (typeof spans)[number]);
    running = running.filter((span) => span.to > at);
    for (const span of running) of(span.memberId).unclaimedOnShift += 1;
  }
  for (const l of input.leave) of(l.memberId);
  return [...members.values()].sort((a, b) => b.seconds - a.seconds || a.memberId.localeCompare(b.memberId));
}

/** The members' quotas judged, their leave taken into account (their roles read from `rolesOf`). */
export function judgeQuotas(members: MemberActivity[], input: ActivityInput): MemberActivity[] {
  const leaveOfMember = new Map<string, MemberLeave[]>();
  for (const l of input.leave) {
    const list = leaveOfMember.get(l.memberId);
    if (list) list.push(l);
    else leaveOfMember.set(l.memberId, [l]);
  }
  for (const member of members) {
    const quota = quotaFor(input, member.memberId);
    member.quota = quota
      ? judgeQuota(member.seconds, quota, leaveOfMember.get(member.memberId) ?? [], input.range)
      : null;
  }
  return members;
}

/** The times (sorted) from `from` to `to`, both included, found by binary search. */
function actionsWithin(times: readonly number[], from: number, to: number): number[] {
  let low = 0;
  let high = times.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((times[mid] ?? 0) < from) low = mid + 1;
    else high = mid;
  }
  const inside: number[] = [];
  for (let i = low; i < times.length && (times[i] ?? 0) <= to; i += 1) inside.push(times[i] ?? 0);
  return inside;
}

/** Whether anything of the member needs a look. */
export function isFlagged(member: MemberActivity): boolean {
  return member.idleStretches > 0 || member.unclaimedOnShift > 0 || member.neverEnded > 0;
}

/** The member's quota over the range: the most hours of their roles' quotas, each pro rata to the range. */
function quotaFor(input: ActivityInput, memberId: string): { hours: number; reducedHours?: number } | undefined {
  const roles = new Set(input.rolesOf(memberId));
  const length = input.range.to - input.range.from;
  let best: { hours: number; reducedHours?: number } | undefined;
  for (const quota of input.quotas) {
    if (!roles.has(quota.roleId)) continue;
    const share = length / (quota.per === 'week' ? WEEK_MS : MONTH_MS);
    const hours = round(quota.hours * share);
    const reduced = input.reduced.get(quota.roleId);
    if (best === undefined || hours > best.hours) {
      best = reduced === undefined ? { hours } : { hours, reducedHours: round(reduced * share) };
    }
  }
  return best;
}

function round(hours: number): number {
  return Math.round(hours * 10) / 10;
}
