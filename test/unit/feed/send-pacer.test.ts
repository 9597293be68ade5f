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
  it('lets go one send every 1000 / rate ms, the longest waiting first', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(2, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [50, 10, 40, 20, 30]) void take(since);
    await settle();
    // The first asked went at once (nothing was sent before); the rest go half a second apart, oldest first.
    expect(went).toEqual([50]);
    await time.advance(499, settle);
    expect(went).toEqual([50]);
    await time.advance(1, settle);
    expect(went).toEqual([50, 10]);
    await time.advance(1_000, settle);
    expect(went).toEqual([50, 10, 20, 30]);
    await time.advance(500, settle);
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

  it('takes a raised rate from the next send on, counting from the last send', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3, 4, 5]) void take(since);
    await settle();
    await time.advance(300, settle);
    expect(went).toEqual([1]);
    // The process took a dead one's partitions: at 4 a second the next send was due 250 ms after the last.
    pacer.setRate(4);
    await settle();
    expect(went).toEqual([1, 2]);
    await time.advance(200, settle);
    expect(went).toEqual([1, 2, 3]);
    await time.advance(500, settle);
    expect(went).toEqual([1, 2, 3, 4, 5]);
  });

  it('takes a lowered rate from the next send on', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(4, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3]) void take(since);
    await settle();
    pacer.setRate(1);
    await time.advance(999, settle);
    expect(went).toEqual([1]);
    await time.advance(1, settle);
    expect(went).toEqual([1, 2]);
    await time.advance(1_000, settle);
    expect(went).toEqual([1, 2, 3]);
  });

  it('saves no sends up while idle: after a quiet spell the spacing counts from the first send', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(2, time.now, time);
    const { went, take } = asker(pacer);
    void take(1);
    await settle();
    await time.advance(5_000, settle);
    for (const since of [2, 3, 4]) void take(since);
    await settle();
    expect(went).toEqual([1, 2]);
    await time.advance(499, settle);
    expect(went).toEqual([1, 2]);
    await time.advance(1, settle);
    expect(went).toEqual([1, 2, 3]);
  });

  it('keeps the next send due a spacing after the last one was due when a timer fires late', async () => {
    // Timers that fire only when the test says, at whatever time the clock shows then (a busy event loop).
    let now = 0;
    let fire: (() => void) | undefined;
    let firesIn = 0;
    const timers = {
      setTimeout: (callback: () => void, ms: number) => ((fire = callback), (firesIn = ms)),
      clearTimeout: () => (fire = undefined),
    };
    const pacer = new SendPacer(2, () => now, timers);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3]) void take(since);
    await settle();
    expect(firesIn).toBe(500);
    now = 530;
    fire?.();
    await settle();
    expect(went).toEqual([1, 2]);
    // Due at 1000, as if the send at 530 had gone at 500: the share of 2 a second holds.
    expect(firesIn).toBe(470);
  });
});
