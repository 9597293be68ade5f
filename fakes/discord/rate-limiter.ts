/**
 * Discord-style fixed-window rate limits, one bucket per key (e.g. per channel for message creates).
 */

/** A limit: `limit` requests per `windowMs`. */
export interface RateLimit {
  readonly limit: number;
  readonly windowMs: number;
}

/** The outcome of one request against a bucket, with what Discord's headers report. */
export interface RateLimitDecision {
  readonly allowed: boolean;
  readonly limit: number;
  /** Requests left in the current window after this one. */
  readonly remaining: number;
  /** When the window resets, in ms since the Unix epoch. */
  readonly resetAt: number;
  /** How long until the reset, in ms. */
  readonly resetAfterMs: number;
}

interface Window {
  startedAt: number;
  used: number;
}

/** Counts requests per key in fixed windows that start with each window's first request, as Discord's do. */
export class FixedWindowRateLimiter {
  readonly #windows = new Map<string, Window>();

  constructor(
    private readonly rule: RateLimit,
    private readonly now: () => number = Date.now,
  ) {}

  /** Records one request for `key` when it fits, and says whether it did. */
  take(key: string): RateLimitDecision {
    const now = this.now();
    let window = this.#windows.get(key);
    if (!window || now - window.startedAt >= this.rule.windowMs) {
      window = { startedAt: now, used: 0 };
      this.#windows.set(key, window);
    }
    const allowed = window.used < this.rule.limit;
    if (allowed) window.used += 1;
    const resetAt = window.startedAt + this.rule.windowMs;
    return {
      allowed,
      limit: this.rule.limit,
      remaining: Math.max(0, this.rule.limit - window.used),
      resetAt,
      resetAfterMs: Math.max(0, resetAt - now),
    };
  }

  /** Forgets every window, e.g. between test phases. */
  reset(): void {
    this.#windows.clear();
  }
}

/** Discord's headers for a decision; `bucket` is the opaque bucket hash (`X-RateLimit-Bucket`). */
export function rateLimitHeaders(decision: RateLimitDecision, bucket: string): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(decision.limit),
    'X-RateLimit-Remaining': String(decision.remaining),
    'X-RateLimit-Reset': (decision.resetAt / 1000).toFixed(3),
    'X-RateLimit-Reset-After': (decision.resetAfterMs / 1000).toFixed(3),
    'X-RateLimit-Bucket': bucket,
  };
}
