import { RUNTIME_TIMERS, type Timers } from '../../src/base/timers.js';

/**
 * The runtime's timers, counting the callbacks that fired by their delay: a job that waits a delay of its own
 * between runs (a test gives it one no other timer uses) is counted run by run.
 */
export function countingTimers(inner: Timers = RUNTIME_TIMERS): { timers: Timers; fired: (ms: number) => number } {
  const fired = new Map<number, number>();
  return {
    timers: {
      setTimeout: (callback, ms) =>
        inner.setTimeout(() => {
          fired.set(ms, (fired.get(ms) ?? 0) + 1);
          callback();
        }, ms),
      clearTimeout: (handle) => inner.clearTimeout(handle),
    },
    fired: (ms) => fired.get(ms) ?? 0,
  };
}
