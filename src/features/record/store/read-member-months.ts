import type { SqlRunner } from '../../../store/sql-runner.js';
import type { memberMonthStatements } from './member-month-statements.js';
import type { MemberMonth } from './record-queries.js';
import { sorted } from './sorted-times.js';

/**
 * A member's record by UTC month (RecordQueries.memberMonths): shifts and cases as the database added them up by
 * month, claims one a row, so each month's time to claim is the exact lower median.
 */
export async function readMemberMonths(
  runner: SqlRunner,
  statements: ReturnType<typeof memberMonthStatements>,
  params: [string, string, number, number],
): Promise<MemberMonth[]> {
  const [shiftMonths, caseMonths, claims] = await Promise.all([
    runner.read(statements.shiftMonths, params),
    runner.read(statements.caseMonths, params),
    runner.read(statements.claims, params),
  ]);
  const months = new Map<number, MemberMonth & { toClaimMs: number[] }>();
  const monthOf = (at: number) => {
    const date = new Date(at);
    const month = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
    let found = months.get(month);
    if (!found) {
      found = { month, shifts: 0, seconds: 0, cases: 0, claims: 0, medianToClaimMs: null, toClaimMs: [] };
      months.set(month, found);
    }
    return found;
  };
  for (const row of shiftMonths) {
    const month = monthOf(row.month);
    month.shifts += row.count;
    month.seconds += row.seconds;
  }
  for (const row of caseMonths) monthOf(row.month).cases += row.count;
  for (const row of claims) {
    const month = monthOf(row.at);
    month.claims += 1;
    month.toClaimMs.push(row.to_claim);
  }
  return [...months.values()]
    .sort((a, b) => a.month - b.month)
    .map(({ toClaimMs, ...month }) => ({ ...month, medianToClaimMs: lowerMedian(sorted(toClaimMs)) }));
}

/** The lower median of sorted times (percentile 0.5 as describe-stats.ts reads it); null for none. */
function lowerMedian(sortedMs: readonly number[]): number | null {
  return sortedMs.length === 0 ? null : (sortedMs[Math.ceil(sortedMs.length / 2) - 1] ?? null);
}
