import { describe, expect, it } from 'vitest';

import { readRateLimitHeaders, RequestBudget, RequestBudgets } from '../../../src/upstream/developer-budget.js';

function manualClock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('RequestBudget', () => {
  it('lets 60 requests go in any 60 s and says how long the 61st must wait', () => {
    const clock = manualClock();
    const budget = new RequestBudget(clock.now);
    for (let i = 0; i < 60; i += 1) {
      expect(budget.check('command')).toEqual({ ok: true });
      budget.take('command');
      clock.advance(500);
    }
    // The first request left at t=0; it is now t=30 s, so the window has room again at t=60 s.
    expect(budget.check('command')).toEqual({ ok: false, waitMs: 30_000, reason: 'budget' });
    clock.advance(30_000);
    expect(budget.check('command')).toEqual({ ok: true });
  });

  it('gives polling at most 30 a minute and leaves the rest to commands', () => {
    const clock = manualClock();
    const budget = new RequestBudget(clock.now);
    for (let i = 0; i < 30; i += 1) budget.take('poll');
    expect(budget.check('poll')).toMatchObject({ ok: false, waitMs: 60_000 });
    expect(budget.check('command')).toEqual({ ok: true });
    for (let i = 0; i < 30; i += 1) budget.take('command');
    expect(budget.check('command')).toMatchObject({ ok: false, reason: 'budget' });
  });

  it('sends nothing for exactly retry-after after a 429', () => {
    const clock = manualClock();
    const budget = new RequestBudget(clock.now);
    budget.learn(new Headers({ 'retry-after': '30' }), 429);
    expect(budget.retryAfterUntil).toBe(clock.now() + 30_000);
    clock.advance(29_999);
    expect(budget.check('command')).toEqual({ ok: false, waitMs: 1, reason: 'retry_after' });
    clock.advance(1);
    expect(budget.check('command')).toEqual({ ok: true });
  });

  it('waits for the window reset after a 429 without retry-after, or a whole minute', () => {
    const clock = manualClock();
    const budget = new RequestBudget(clock.now);
    budget.learn(new Headers({ 'x-ratelimit-reset': '12' }), 429);
    expect(budget.check('command')).toMatchObject({ waitMs: 12_000, reason: 'retry_after' });
    const other = new RequestBudget(clock.now);
    other.learn(new Headers(), 429);
    expect(other.check('poll')).toMatchObject({ waitMs: 60_000 });
  });

  it("follows the service's own count: none left means wait, few left means polling waits", () => {
    const clock = manualClock();
    const budget = new RequestBudget(clock.now);
    budget.learn(new Headers({ 'X-RateLimit-Remaining': '5', 'X-RateLimit-Reset': '20' }), 200);
    expect(budget.check('poll')).toMatchObject({ ok: false, waitMs: 20_000 });
    expect(budget.check('command')).toEqual({ ok: true });
    for (let i = 0; i < 5; i += 1) budget.take('command');
    expect(budget.check('command')).toMatchObject({ ok: false, waitMs: 20_000 });
    clock.advance(20_000);
    expect(budget.check('command')).toEqual({ ok: true });
  });
});

describe('readRateLimitHeaders', () => {
  const now = 1_700_000_000_000;

  it('reads remaining and reset whatever the exact header names', () => {
    for (const names of [
      ['x-ratelimit-remaining', 'x-ratelimit-reset'],
      ['x-rate-limit-remaining', 'x-rate-limit-reset-after'],
      ['ratelimit-remaining', 'ratelimit-reset'],
      ['X-RateLimit-Remaining-Minute', 'X-RateLimit-Reset-Seconds'],
    ] as const) {
      const headers = new Headers({ [names[0]]: '42', [names[1]]: '15' });
      expect(readRateLimitHeaders(headers, now), names.join(', ')).toEqual({ remaining: 42, resetAt: now + 15_000 });
    }
  });

  it('reads a reset given as epoch seconds or epoch milliseconds, and ignores what is not a number', () => {
    expect(readRateLimitHeaders(new Headers({ 'x-ratelimit-reset': String(now / 1000 + 7) }), now)).toEqual({
      resetAt: now + 7_000,
    });
    expect(readRateLimitHeaders(new Headers({ 'x-ratelimit-reset': String(now + 9_000) }), now)).toEqual({
      resetAt: now + 9_000,
    });
    expect(
      readRateLimitHeaders(
        new Headers({ 'x-ratelimit-remaining': 'soon', 'x-ratelimit-limit': '60', other: '1' }),
        now,
      ),
    ).toEqual({});
  });
});

describe('RequestBudgets', () => {
  it('gives each key its own budget and the same key the same one', () => {
    const budgets = new RequestBudgets(() => 0);
    expect(budgets.of('upk_a')).toBe(budgets.of('upk_a'));
    expect(budgets.of('upk_a')).not.toBe(budgets.of('upk_b'));
  });

  it("says the fewest polls left of any key: the poll share, the whole minute's and the service's count", () => {
    const clock = manualClock();
    const budgets = new RequestBudgets(clock.now);
    expect(budgets.lowestPollsLeft()).toBe(30);
    for (let i = 0; i < 12; i += 1) budgets.of('upk_a').take('poll');
    budgets.of('upk_b').take('poll');
    expect(budgets.lowestPollsLeft()).toBe(18);
    // Commands leave polling what the minute has left: 60 - 12 - 40 = 8.
    for (let i = 0; i < 40; i += 1) budgets.of('upk_a').take('command');
    expect(budgets.lowestPollsLeft()).toBe(8);
    // The service says 15 remain: polling leaves the last 10 to commands.
    budgets.of('upk_b').learn(new Headers({ 'X-RateLimit-Remaining': '15', 'X-RateLimit-Reset': '20' }), 200);
    expect(budgets.of('upk_b').pollsLeft()).toBe(5);
    budgets.of('upk_b').learn(new Headers({ 'retry-after': '30' }), 429);
    expect(budgets.lowestPollsLeft()).toBe(0);
    // A minute later the window is empty again.
    clock.advance(60_000);
    expect(budgets.lowestPollsLeft()).toBe(30);
  });
});

describe('RequestBudget and the submission limit', () => {
  it('does not stop every request for a 429 that is the limit of 10 submissions an hour', () => {
    const clock = manualClock();
    const budget = new RequestBudget(clock.now);
    budget.learn(new Headers({ 'retry-after': '3000' }), 429, true);
    expect(budget.check('poll')).toEqual({ ok: true });
    budget.learn(new Headers({ 'retry-after': '20', 'x-ratelimit-remaining': '40' }), 429, true);
    expect(budget.check('command')).toEqual({ ok: true });
    budget.learn(new Headers({ 'retry-after': '20', 'x-ratelimit-remaining': '0' }), 429, true);
    expect(budget.check('command')).toMatchObject({ ok: false, reason: 'retry_after', waitMs: 20_000 });
  });
});
