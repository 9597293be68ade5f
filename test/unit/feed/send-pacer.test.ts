import { describe, expect, it } from 'vitest';

import { SendPacer } from '../../../src/feed/send-pacer.js';
import { ManualTime } from '../../helpers/manual-time.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Takes a turn for each `since` and records, in order, which were let go. */
function asker(pacer: SendPacer) {
  const went: number[] = [];
  const take = (since: number, signal?: AbortSignal) =>
    pacer.take(since, signal).then((granted) => {
      if (granted) went.push(since);
      return granted;
    });
  return { went, take };
}

describe('the send pacer', () => {
  it('lets go as many sends a second as its rate, the longest waiting first', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(2, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [50, 10, 40, 20, 30]) void take(since);
    await settle();
    // The first two asked went at once (the second had room); the rest wait for the next second, oldest first.
    expect(went).toEqual([50, 10]);
    await time.advance(999, settle);
    expect(went).toEqual([50, 10]);
    await time.advance(1, settle);
    expect(went).toEqual([50, 10, 20, 30]);
    await time.advance(1_000, settle);
    expect(went).toEqual([50, 10, 20, 30, 40]);
    expect(time.waiting).toBe(0);
  });

  it("withdraws a send whose lane stopped: it never goes, and takes no other lane's turn", async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const { went, take } = asker(pacer);
    void take(1);
    const stopping = new AbortController();
    const withdrawn = take(2, stopping.signal);
    void take(3);
    await settle();
    stopping.abort();
    expect(await withdrawn).toBe(false);
    await time.advance(1_000, settle);
    expect(went).toEqual([1, 3]);
    // A lane that stopped before asking is told so at once.
    expect(await pacer.take(0, stopping.signal)).toBe(false);
  });

  it('lets go, of lanes that waited since the same moment, the first to ask first', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const went: string[] = [];
    const lanes = ['a', 'b', 'c', 'd', 'e', 'f'];
    for (const lane of lanes) void pacer.take(100, undefined).then(() => went.push(lane));
    await settle();
    for (let second = 1; second < lanes.length; second += 1) await time.advance(1_000, settle);
    expect(went).toEqual(lanes);
  });

  it('takes a new rate from the next second on', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3, 4]) void take(since);
    await settle();
    pacer.setRate(3);
    await settle();
    expect(went).toEqual([1]);
    await time.advance(1_000, settle);
    expect(went).toEqual([1, 2, 3, 4]);
  });

  it('starts a new second with the first send after the last one ended, whatever the last one left unused', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(3, time.now, time);
    const { went, take } = asker(pacer);
    void take(1);
    await settle();
    await time.advance(5_000, settle);
    for (const since of [2, 3, 4, 5]) void take(since);
    await settle();
    // Three in this second, not the two the idle one left plus three.
    expect(went).toEqual([1, 2, 3, 4]);
    await time.advance(1_000, settle);
    expect(went).toEqual([1, 2, 3, 4, 5]);
  });
});
