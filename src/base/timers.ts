/** Sets and clears timers: injected wherever the bot waits (lanes, the release poller), so tests use a fake clock. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The runtime's own timers, unref'd: something waiting never keeps the process alive on its own. */
export const RUNTIME_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms).unref(),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};
