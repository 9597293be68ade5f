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
  it('lets go a fifth of its rate every fifth of a second, the longest waiting first', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(10, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [50, 10, 40, 20, 30]) void take(since);
    await settle();
    // The first two asked went at once (nothing was sent before); the rest go two at a time, oldest first.
    expect(went).toEqual([50, 10]);
    await time.advance(199, settle);
    expect(went).toEqual([50, 10]);
    await time.advance(1, settle);
    expect(went).toEqual([50, 10, 20, 30]);
    await time.advance(200, settle);
    expect(went).toEqual([50, 10, 20, 30, 40]);
    expect(time.waiting).toBe(0);
  });

  it('never lets more than its rate go in any second while lanes keep asking', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(50, time.now, time);
    const sentAt: number[] = [];
    // Every lane asks again as soon as its send went, as lanes with a backlog do.
    const lane = (since: number): void =>
      void pacer.take(since).then(() => {
        sentAt.push(time.now());
        lane(time.now());
      });
    for (let channel = 0; channel < 120; channel += 1) lane(channel);
    await settle();
    await time.advance(10_000, settle);
    expect(sentAt.length).toBeGreaterThanOrEqual(500);
    const mostInASecond = Math.max(...sentAt.map((at) => sentAt.filter((t) => t >= at && t < at + 1_000).length));
    expect(mostInASecond).toBe(50);
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

  it('takes a raised rate from the next fifth of a second, not the next second', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(5, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3, 4, 5, 6]) void take(since);
    await settle();
    await time.advance(100, settle);
    // The process took a dead one's partitions: 50 a second, ten in the next fifth.
    pacer.setRate(50);
    await settle();
    expect(went).toEqual([1]);
    await time.advance(100, settle);
    expect(went).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('takes a lowered rate from the next part on', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(10, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3, 4]) void take(since);
    await settle();
    pacer.setRate(1);
    expect(went).toEqual([1, 2]);
    await time.advance(200, settle);
    expect(went).toEqual([1, 2, 3]);
    await time.advance(999, settle);
    expect(went).toEqual([1, 2, 3]);
    await time.advance(1, settle);
    expect(went).toEqual([1, 2, 3, 4]);
  });

  it('saves no sends up while idle: after a quiet spell a part starts with the first send', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(10, time.now, time);
    const { went, take } = asker(pacer);
    void take(1);
    await settle();
    await time.advance(5_000, settle);
    for (const since of [2, 3, 4]) void take(since);
    await settle();
    expect(went).toEqual([1, 2, 3]);
    await time.advance(199, settle);
    expect(went).toEqual([1, 2, 3]);
    await time.advance(1, settle);
    expect(went).toEqual([1, 2, 3, 4]);
  });

  it('counts a part opened late (a busy event loop) from when it was due, so the rate holds', async () => {
    // Timers that fire only when the test says, at whatever time the clock shows then.
    let now = 0;
    let fire: (() => void) | undefined;
    let firesIn = 0;
    const timers = {
      setTimeout: (callback: () => void, ms: number) => ((fire = callback), (firesIn = ms)),
      clearTimeout: () => (fire = undefined),
    };
    const pacer = new SendPacer(10, () => now, timers);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3, 4, 5]) void take(since);
    await settle();
    expect(firesIn).toBe(200);
    now = 230;
    fire?.();
    await settle();
    expect(went).toEqual([1, 2, 3, 4]);
    // The part that opened at 230 was due at 200: the next is due at 400, as if nothing had been late.
    expect(firesIn).toBe(170);
  });
});
