import type { MemberMonth, TimeRange } from '../../../../src/features/record/index.js';

/** What the plain model knows of a guild's record: its rows as written, in plain objects. */
export interface PlainRecord {
  shifts: Array<{ memberId: string | null; at: number; seconds: number | null }>;
  cases: Array<{ moderatorId: string | null; at: number; voided: boolean }>;
  calls: Array<{ at: number; cardAt: number | null; claimedBy: string | null; claimedAt: number | null }>;
}

/** The first midnight (UTC) of the month `at` is in. */
function monthOf(at: number): number {
  const date = new Date(at);
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
}

/**
 * A member's figures per UTC month, read the plain way: every row looked at, each one counted in the month it
 * began in if it is the member's and in the range. A case counts when it stands (not voided); a claim once per card,
 * on the card's first call (no card named, or the card's first call itself); the median is the lower one.
 */
export function memberMonths(record: PlainRecord, memberId: string, range: TimeRange): MemberMonth[] {
  const months = new Map<number, { shifts: number; seconds: number; cases: number; waits: number[] }>();
  const month = (at: number) => {
    const key = monthOf(at);
    const found = months.get(key) ?? { shifts: 0, seconds: 0, cases: 0, waits: [] };
    months.set(key, found);
    return found;
  };
  const inRange = (at: number) => at >= range.from && at < range.to;
  for (const shift of record.shifts) {
    if (shift.memberId !== memberId || !inRange(shift.at)) continue;
    const found = month(shift.at);
    found.shifts += 1;
    found.seconds += shift.seconds ?? 0;
  }
  for (const made of record.cases) {
    if (made.moderatorId === memberId && !made.voided && inRange(made.at)) month(made.at).cases += 1;
  }
  for (const call of record.calls) {
    const firstOfCard = call.cardAt === null || call.cardAt === call.at;
    if (call.claimedBy !== memberId || call.claimedAt === null || !firstOfCard || !inRange(call.at)) continue;
    month(call.at).waits.push(call.claimedAt - call.at);
  }
  return [...months.entries()]
    .sort(([a], [b]) => a - b)
    .map(([key, found]) => {
      const waits = [...found.waits].sort((a, b) => a - b);
      return {
        month: key,
        shifts: found.shifts,
        seconds: found.seconds,
        cases: found.cases,
        claims: waits.length,
        medianToClaimMs: waits.length === 0 ? null : (waits[Math.floor((waits.length - 1) / 2)] ?? null),
      };
    });
}
