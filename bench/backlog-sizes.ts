/**
 * How big the backlog group's backlog is: BACKLOG_SIZE waiting entries (default 100,000, the size) and
 * BACKLOG_SEEN posted rows kept for deduplication (default ten times that, the 1M). The append cost is
 * compared at `low` (1,000, or a tenth of a smaller size) against `size`.
 */
export interface BacklogSizes {
  size: number;
  seen: number;
  low: number;
  /** True when BACKLOG_SIZE changed the size: the output says so next to every figure. */
  scaled: boolean;
}

export const DEFAULT_BACKLOG_SIZE = 100_000;

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
  return {
    size,
    seen: positiveInteger('BACKLOG_SEEN', 10 * size),
    low: Math.min(1_000, Math.floor(size / 10)),
    scaled: size !== DEFAULT_BACKLOG_SIZE,
  };
}
