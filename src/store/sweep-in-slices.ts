/**
 * Rows one sweep statement deletes at most. On SQLite a statement runs on the main thread, on PostgreSQL it
 * holds its locks until it ends: a slice keeps either short (`npm run bench -- housekeeping`).
 */
export const SWEEP_SLICE = 200;

/**
 * Runs `sweepSlice` (one bounded delete of at most `limit` rows; returns how many went) until a slice deletes
 * fewer than `limit`, and returns the total. Between slices the event loop runs whatever waits (a delivery to
 * acknowledge, a lane to send), so a sweep of any size never holds the process for longer than one slice.
 */
export async function sweepInSlices(
  sweepSlice: (limit: number) => Promise<number>,
  limit = SWEEP_SLICE,
): Promise<number> {
  let total = 0;
  for (;;) {
    const removed = await sweepSlice(limit);
    total += removed;
    if (removed < limit) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
