import type { Clock } from '../../src/base/clock.js';

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

const WINDOW_MS = 60_000;

/**
 * Requests per key per minute, counted in fixed minute windows (§8 gives the developer API 60 per minute; the
 * server API's limit is not documented, so the fake uses the same figure unless told otherwise).
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>();
  private readonly forced = new Map<string, number>();

  constructor(
    private readonly perMinute: number,
    private readonly clock: Clock,
  ) {}

  /** The key's next request answers 429 with this `retry-after`, whatever the count. */
  forceNext(key: string, retryAfterSeconds: number): void {
    this.forced.set(key, retryAfterSeconds);
  }

  /** The key's current window as the `x-ratelimit-*` headers tell it: limit, requests left, seconds to reset. */
  status(key: string): { limit: number; remaining: number; resetAfterSeconds: number } {
    const now = this.clock();
    const start = now - (now % WINDOW_MS);
    const window = this.windows.get(key);
    const used = window && window.start === start ? window.count : 0;
    return {
      limit: this.perMinute,
      remaining: Math.max(0, this.perMinute - used),
      resetAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)),
    };
  }

  /** Counts one request of `key` and says whether it may go on. */
  take(key: string): RateDecision {
    const forced = this.forced.get(key);
    if (forced !== undefined) {
      this.forced.delete(key);
      return { ok: false, retryAfterSeconds: forced };
    }
    const now = this.clock();
    const start = now - (now % WINDOW_MS);
    const window = this.windows.get(key);
    const current = window && window.start === start ? window : { start, count: 0 };
    current.count += 1;
    this.windows.set(key, current);
    if (current.count <= this.perMinute) return { ok: true };
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)) };
  }
}
