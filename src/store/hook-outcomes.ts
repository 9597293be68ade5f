import type { HookOutcome } from './hook-activity.js';
import type { StoreSignals } from './signals.js';

/**
 * Resolves with the next outcome at the intake for `hookId` that `accept` takes (the service's ping, or a
 * refusal), or undefined after `timeoutMs`. It hears outcomes through the store's signals, so with a shared
 * store the ping may arrive at any process.
 */
export function waitForHookOutcome(
  signals: StoreSignals,
  hookId: string,
  accept: (outcome: HookOutcome) => boolean,
  timeoutMs: number,
): Promise<HookOutcome | undefined> {
  return new Promise((resolve) => {
    const finish = (outcome: HookOutcome | undefined) => {
      clearTimeout(timer);
      unsubscribe();
      resolve(outcome);
    };
    const unsubscribe = signals.subscribe((signal) => {
      if (signal.kind === 'hook-outcome' && signal.hookId === hookId && accept(signal.outcome)) finish(signal.outcome);
    });
    const timer = setTimeout(() => finish(undefined), timeoutMs);
  });
}
