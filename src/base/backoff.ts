/** How long to wait before the next try of a failed send. */
export interface BackoffPolicy {
  /** Delay after the first failure, in ms. */
  baseMs: number;
  /** The longest delay, in ms, however many failures came before. */
  capMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 60_000 };

/**
 * Capped exponential backoff with full jitter (a random delay up to the exponential bound), so channels that
 * failed together do not all retry in the same instant when Discord comes back.
 * @param failures how many sends in a row failed, from 1
 */
export function backoffDelay(failures: number, policy: BackoffPolicy, random: () => number = Math.random): number {
  const bound = Math.min(policy.capMs, policy.baseMs * 2 ** Math.max(0, failures - 1));
  // Never zero: half the bound at least, so a tight retry loop cannot form.
  return Math.round(bound / 2 + (random() * bound) / 2);
}
