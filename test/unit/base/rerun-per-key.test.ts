import { describe, expect, it } from 'vitest';

import { RerunPerKey } from '../../../src/base/rerun-per-key.js';

/** A run that waits until the test lets it finish. */
function gatedWork() {
  const runs: string[] = [];
  const gates: Array<() => void> = [];
  const work = (key: string) =>
    new Promise<void>((resolve) => {
      runs.push(key);
      gates.push(resolve);
    });
  const finishNext = async () => {
    gates.shift()?.();
    // Lets the finished run's continuation start the next one, if any.
    await new Promise((resolve) => setImmediate(resolve));
  };
  return { runs, work, finishNext };
}

describe('RerunPerKey', () => {
  it('runs a key once more after the run under way, however many times it was asked meanwhile', async () => {
    const { runs, work, finishNext } = gatedWork();
    const reruns = new RerunPerKey(work);
    const first = reruns.run('hook-1');
    for (let i = 0; i < 50; i += 1) void reruns.run('hook-1');
    expect(runs).toEqual(['hook-1']);
    await finishNext();
    expect(runs).toEqual(['hook-1', 'hook-1']);
    await finishNext();
    await first;
    expect(runs).toEqual(['hook-1', 'hook-1']);
    // Nothing is kept for the key: the next ask runs at once.
    void reruns.run('hook-1');
    expect(runs).toHaveLength(3);
    await finishNext();
    await reruns.settled();
  });

  it('runs different keys side by side, and settles once every key is done', async () => {
    const { runs, work, finishNext } = gatedWork();
    const reruns = new RerunPerKey(work);
    void reruns.run('a');
    void reruns.run('b');
    expect(runs).toEqual(['a', 'b']);
    let settled = false;
    const done = reruns.settled().then(() => (settled = true));
    await finishNext();
    expect(settled).toBe(false);
    await finishNext();
    await done;
    expect(settled).toBe(true);
  });
});
