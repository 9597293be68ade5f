/**
 * Watches the main thread while something runs: the longest time between two turns of the event loop, i.e. the
 * longest the process could not answer anything (a request, a timer). A chain of setImmediate callbacks keeps
 * the loop from sleeping in its poll phase, so a gap is work, not idle waiting.
 */
export function watchLoopGaps(): { stop(): number } {
  let last = performance.now();
  let longest = 0;
  let watching = true;
  const turn = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    if (watching) setImmediate(turn);
  };
  setImmediate(turn);
  return {
    stop: () => {
      watching = false;
      return Math.max(longest, performance.now() - last);
    },
  };
}
