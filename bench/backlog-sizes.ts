/**
 * How big the backlog group's backlog is: BACKLOG_SIZE waiting entries (default 100,000, the size) and
 * BACKLOG_SEEN posted rows kept for deduplication (default ten times that, the 1M). The append cost is
 * compared at `low` (1,000, or a tenth of a smaller size) against `size`.
 */
export interface BacklogSizes {
  size: number;
  seen: number;
  low: number;
  /**
   * Posted rows that keep their body: the replay window's (REPLAY_WINDOW_HOURS=24) at 100,000 deliveries a day
   * (BACKLOG_REPLAY_BODIES; at most `seen`).
   */
  withBody: number;
  /** True when BACKLOG_SIZE changed the size: the output says so next to every figure. */
  scaled: boolean;
}

export const DEFAULT_BACKLOG_SIZE = 100_000;
/** A day's deliveries (100,000) kept with their bodies for a 24 h replay window. */
export const REPLAY_WINDOW_DELIVERIES = 100_000;

function positiveInteger(name: string, fallback: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive whole number, got "${text}"`);
  return value;
}

export function backlogSizes(): BacklogSizes {
  const size = positiveInteger('BACKLOG_SIZE', DEFAULT_BACKLOG_SIZE);
  // The low point's window (2,200 signed deliveries) must end well below the full size.
  if (size < 5_000) throw new Error(`BACKLOG_SIZE must be at least 5000, got ${size}`);
  const seen = positiveInteger('BACKLOG_SEEN', 10 * size);
  return {
    size,
    seen,
    withBody: Math.min(seen, positiveInteger('BACKLOG_REPLAY_BODIES', REPLAY_WINDOW_DELIVERIES)),
    low: Math.min(1_000, Math.floor(size / 10)),
    scaled: size !== DEFAULT_BACKLOG_SIZE,
  };
}
