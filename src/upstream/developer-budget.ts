import { createHash } from 'node:crypto';

import type { Clock } from '../base/clock.js';
import { parseRetryAfter } from './retry-after.js';

/** Who spends a request: a person's command, or the release-card poller in the background. */
export type RequestPurpose = 'command' | 'poll';

/** The developer API's limit (upstream-api.md §8) and the share of it the poller may use. */
export interface BudgetLimits {
  /** Requests per key in any 60 s; the service allows 60. */
  perMinute: number;
  /** Of those, at most this many for polling, so commands always have the rest. */
  pollPerMinute: number;
  /**
   * When the service's own headers say fewer requests than this are left in its window, polling waits and
   * leaves them to commands (another program may be using the same key).
   */
  pollFloor: number;
}

export const DEFAULT_BUDGET_LIMITS: BudgetLimits = { perMinute: 60, pollPerMinute: 30, pollFloor: 10 };

/** May a request go now, and if not, how long until it may. */
export type BudgetDecision = { ok: true } | { ok: false; waitMs: number; reason: 'retry_after' | 'budget' };

const WINDOW_MS = 60_000;

/**
 * One developer key's request budget, shared by every command and the poller of every guild using that key.
 * It counts what we sent in the last 60 s (a sliding window, so no fixed minute of the service's ever sees more
 * than `perMinute`), learns the service's own count from its `x-ratelimit-*` headers whatever their exact
 * names (§8 does not give them), and after a 429 sends nothing until `retry-after` has passed, exactly.
 */
export class RequestBudget {
  private readonly sent: Array<{ at: number; purpose: RequestPurpose }> = [];
  private blockedUntil = 0;
  private service: { remaining: number; resetAt: number } | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly limits: BudgetLimits = DEFAULT_BUDGET_LIMITS,
  ) {}

  /** Whether a request for `purpose` may be sent now. */
  check(purpose: RequestPurpose): BudgetDecision {
    const now = this.clock();
    if (now < this.blockedUntil) return { ok: false, waitMs: this.blockedUntil - now, reason: 'retry_after' };
    this.forgetBefore(now - WINDOW_MS);
    const waits = [this.waitForRoom(this.sent, this.limits.perMinute, now)];
    if (purpose === 'poll') {
      const polls = this.sent.filter((request) => request.purpose === 'poll');
      waits.push(this.waitForRoom(polls, this.limits.pollPerMinute, now));
    }
    if (this.service && now < this.service.resetAt) {
      const floor = purpose === 'poll' ? this.limits.pollFloor : 0;
      if (this.service.remaining <= floor) waits.push(this.service.resetAt - now);
    }
    const waitMs = Math.max(...waits);
    return waitMs > 0 ? { ok: false, waitMs, reason: 'budget' } : { ok: true };
  }

  /** Counts a request about to be sent. */
  take(purpose: RequestPurpose): void {
    this.sent.push({ at: this.clock(), purpose });
    if (this.service) this.service.remaining -= 1;
  }

  /**
   * Learns from an answer: the service's remaining count, and on 429 the wait it asks for. A 429 to a
   * submission may be the limit of 10 submissions an hour instead (§7.4 gives both the same status): when the
   * headers still show requests left, or the wait is longer than any per-minute window needs, it is that one,
   * and other requests go on.
   */
  learn(headers: Headers, status: number, submission = false): void {
    const now = this.clock();
    const window = readRateLimitHeaders(headers, now);
    if (window.remaining !== undefined) {
      this.service = { remaining: window.remaining, resetAt: window.resetAt ?? now + WINDOW_MS };
    }
    if (status !== 429) return;
    const seconds = parseRetryAfter(headers.get('retry-after'), now);
    const submissionLimit = submission && ((window.remaining ?? 0) > 0 || (seconds ?? 0) * 1000 > WINDOW_MS);
    if (submissionLimit) return;
    // Without retry-after, the window's reset is the service's next best word; a whole window else.
    const until = seconds === undefined ? (window.resetAt ?? now + WINDOW_MS) : now + seconds * 1000;
    this.blockedUntil = Math.max(this.blockedUntil, until);
  }

  /**
   * How many more polls may go now, in this minute: what is left of the poll share, of the whole budget, and of
   * the service's own count above the floor polling leaves to commands; 0 while a 429 holds us back.
   */
  pollsLeft(): number {
    const now = this.clock();
    if (now < this.blockedUntil) return 0;
    this.forgetBefore(now - WINDOW_MS);
    const polls = this.sent.filter((request) => request.purpose === 'poll').length;
    let left = Math.min(this.limits.pollPerMinute - polls, this.limits.perMinute - this.sent.length);
    if (this.service && now < this.service.resetAt) {
      left = Math.min(left, this.service.remaining - this.limits.pollFloor);
    }
    return Math.max(0, left);
  }

  /** Until when the service's 429 holds us back (0: it does not). */
  get retryAfterUntil(): number {
    return this.blockedUntil;
  }

  private waitForRoom(requests: ReadonlyArray<{ at: number }>, limit: number, now: number): number {
    if (requests.length < limit) return 0;
    // The request that must leave the window before one more fits in it.
    const leaving = requests[requests.length - limit];
    return leaving === undefined ? 0 : leaving.at + WINDOW_MS - now;
  }

  private forgetBefore(cutoff: number): void {
    while (this.sent.length > 0 && (this.sent[0]?.at ?? 0) <= cutoff) this.sent.shift();
  }
}

/**
 * The service's rate-limit window from its headers, whatever they are called exactly: any header whose name
 * starts with `x-ratelimit`, `x-rate-limit` or `ratelimit` and mentions "remaining" or "reset". A reset is read
 * as epoch milliseconds, epoch seconds or seconds from now, whichever its size says it is.
 */
export function readRateLimitHeaders(headers: Headers, now: number): { remaining?: number; resetAt?: number } {
  const window: { remaining?: number; resetAt?: number } = {};
  headers.forEach((value, name) => {
    if (!/^(x-)?rate-?limit/i.test(name)) return;
    const number = Number(value.trim());
    if (value.trim() === '' || !Number.isFinite(number) || number < 0) return;
    if (/remaining/i.test(name)) window.remaining = Math.floor(number);
    else if (/reset/i.test(name)) window.resetAt = readReset(number, now);
  });
  return window;
}

function readReset(value: number, now: number): number {
  if (value > 1e11) return value;
  if (value > 1e9) return value * 1000;
  return now + value * 1000;
}

/** Every key's budget, created on first use; keys are known here only by a hash. */
export class RequestBudgets {
  private readonly byKey = new Map<string, RequestBudget>();

  constructor(
    private readonly clock: Clock,
    private readonly limits: BudgetLimits = DEFAULT_BUDGET_LIMITS,
  ) {}

  /** The fewest polls left of any key used so far (the one nearest to holding a poll back); a whole share if none. */
  lowestPollsLeft(): number {
    let lowest = this.limits.pollPerMinute;
    for (const budget of this.byKey.values()) lowest = Math.min(lowest, budget.pollsLeft());
    return lowest;
  }

  of(key: string): RequestBudget {
    const id = createHash('sha256').update(key).digest('hex');
    let budget = this.byKey.get(id);
    if (!budget) {
      budget = new RequestBudget(this.clock, this.limits);
      this.byKey.set(id, budget);
    }
    return budget;
  }
}
