/** Small statistics and formatting helpers shared by the benchmark groups. */

/** The middle value (mean of the two middle values for an even count). Throws on an empty list. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const upper = sorted[mid] as number;
  return sorted.length % 2 === 1 ? upper : ((sorted[mid - 1] as number) + upper) / 2;
}

/** Nearest-rank percentile (0 < p <= 100) of unsorted values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new Error('percentile of nothing');
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] as number;
}

/** Three significant digits, whole numbers from 100 up; never exponent notation for the sizes we print. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 100) return value.toFixed(0);
  if (value === 0) return '0';
  return String(Number(value.toPrecision(3)));
}

/** "a, b, c" of the raw per-round values, for the log lines that back each median. */
export function formatList(values: readonly number[]): string {
  return values.map(formatNumber).join(', ');
}

/** Promise-based pause. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Rounds per measurement: `fallback`, or BENCH_ROUNDS for a quick look or a profile (`BENCH_ROUNDS=1`). */
export function roundCount(fallback: number): number {
  const fromEnv = Number(process.env.BENCH_ROUNDS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : fallback;
}
