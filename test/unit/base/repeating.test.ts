import { describe, expect, it } from 'vitest';

import { Repeating } from '../../../src/base/repeating.js';
import { ManualTime } from '../../helpers/manual-time.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A tick that waits until the test lets it finish, counting how many ran and how many run at once. */
function gatedTick() {
  const gates: Array<() => void> = [];
  const counts = { ran: 0, atOnce: 0, mostAtOnce: 0 };
  const tick = () => {
    counts.ran += 1;
    counts.atOnce += 1;
    counts.mostAtOnce = Math.max(counts.mostAtOnce, counts.atOnce);
    return new Promise<void>((resolve) =>
      gates.push(() => {
        counts.atOnce -= 1;
        resolve();
      }),
    );
  };
  const finishAll = async () => {
    for (const open of gates.splice(0)) open();
    await settle();
  };
  return { tick, counts, finishAll };
}

describe('Repeating', () => {
  it('keeps one chain when started again while a stop still waits for its run (a gateway lost and retaken)', async () => {
    const time = new ManualTime();
    const { tick, counts, finishAll } = gatedTick();
    const repeating = new Repeating(time, 1_000, tick, () => undefined);
    repeating.start();
    await time.advance(1_000, settle);
    expect(counts.ran).toBe(1);

    // Three flaps, each while a run is under way (the store is slow): stopped, then started before the run ends.
    const stops: Array<Promise<void>> = [];
    for (let flap = 0; flap < 3; flap += 1) {
      stops.push(repeating.stop());
      repeating.start();
      await time.advance(1_000, settle);
    }
    await finishAll();
    await Promise.all(stops);

    // From here on, one run a second, one at a time.
    counts.ran = 0;
    for (let second = 0; second < 10; second += 1) {
      await time.advance(1_000, settle);
      await finishAll();
    }
    expect(counts.ran).toBe(10);
    expect(counts.mostAtOnce).toBe(1);
    expect(time.waiting).toBe(1);
  });

  it('runs nothing more after a stop, even when its run ends later', async () => {
    const time = new ManualTime();
    const { tick, counts, finishAll } = gatedTick();
    const repeating = new Repeating(time, 1_000, tick, () => undefined);
    repeating.start();
    await time.advance(1_000, settle);
    const stopped = repeating.stop();
    await finishAll();
    await stopped;
    await time.advance(10_000, settle);
    expect(counts.ran).toBe(1);
    expect(time.waiting).toBe(0);
  });
});
