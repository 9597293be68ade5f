/** The times that are there, shortest first (a time is never negative: a clock may be off, not time). */
export function sorted(times: ReadonlyArray<number | null>): number[] {
  return times
    .filter((time): time is number => time !== null)
    .map((time) => Math.max(0, time))
    .sort((a, b) => a - b);
}
