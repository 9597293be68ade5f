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
  it('lets go its share twenty parts a second, 50 ms apart, the longest waiting first', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(10, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [50, 10, 40, 20, 30]) void take(since);
    await settle();
    // The first asked went at once (nothing was sent before); at 10 a second one goes every other part, oldest first.
    expect(went).toEqual([50]);
    await time.advance(99, settle);
    expect(went).toEqual([50]);
    await time.advance(1, settle);
    expect(went).toEqual([50, 10]);
    await time.advance(100, settle);
    expect(went).toEqual([50, 10, 20]);
    await time.advance(200, settle);
    expect(went).toEqual([50, 10, 20, 30, 40]);
    expect(time.waiting).toBe(0);
  });

  it('lets a send go within 50 ms at 50 a second, 3 and 2 in turn, however many wait', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(50, time.now, time);
    const { went, take } = asker(pacer);
    for (let since = 0; since < 200; since += 1) void take(since);
    await settle();
    const counts = [went.length];
    for (let part = 1; part < 6; part += 1) {
      await time.advance(50, settle);
      counts.push(went.length);
    }
    expect(counts).toEqual([3, 5, 8, 10, 13, 15]);
  });

  it.each([50, 37, 25, 3])(
    'never lets more than its share (%i) go in any second while lanes keep asking',
    async (share) => {
      const time = new ManualTime();
      const pacer = new SendPacer(share, time.now, time);
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
      // From a share of 10 on, one send a second is kept for a channel back from idle, and none came back here.
      const busyShare = share >= 10 ? share - 1 : share;
      // The busy share every 1,010 ms (a send counts that long: last-second.ts, LEAVING_MS) for ten seconds.
      expect(sentAt.length).toBeGreaterThanOrEqual(Math.floor((10_000 / 1_010) * busyShare));
      const mostInASecond = Math.max(...sentAt.map((at) => sentAt.filter((t) => t >= at && t < at + 1_000).length));
      expect(mostInASecond).toBe(busyShare);
    },
  );

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
    // A send counts for 1,010 ms: a second, and the moment @discordjs/rest's own count of it may start later.
    await time.advance(1_010, settle);
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
    for (let second = 1; second < lanes.length; second += 1) await time.advance(1_010, settle);
    expect(went).toEqual(lanes);
  });

  it('takes a raised rate at once, not from the next second', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(5, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3, 4, 5, 6]) void take(since);
    await settle();
    await time.advance(25, settle);
    expect(went).toEqual([1]);
    // The process took a dead one's partitions: 50 a second, 3 and 2 in turn from now.
    pacer.setRate(50);
    await settle();
    expect(went).toEqual([1, 2, 3, 4]);
    await time.advance(50, settle);
    expect(went).toEqual([1, 2, 3, 4, 5, 6]);
  });

  it('takes a lowered rate from the next part on', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(10, time.now, time);
    const { went, take } = asker(pacer);
    for (const since of [1, 2, 3, 4]) void take(since);
    await settle();
    pacer.setRate(1);
    expect(went).toEqual([1]);
    await time.advance(1_009, settle);
    expect(went).toEqual([1]);
    await time.advance(1, settle);
    expect(went).toEqual([1, 2]);
    await time.advance(1_010, settle);
    expect(went).toEqual([1, 2, 3]);
  });

  it("saves no sends up while idle: after a quiet spell a fifth of a second's share goes at once, no more", async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(10, time.now, time);
    const { went, take } = asker(pacer);
    void take(1);
    await settle();
    await time.advance(5_000, settle);
    for (const since of [2, 3, 4, 5]) void take(since);
    await settle();
    expect(went).toEqual([1, 2, 3]);
    await time.advance(99, settle);
    expect(went).toEqual([1, 2, 3]);
    await time.advance(1, settle);
    expect(went).toEqual([1, 2, 3, 4]);
  });

  it('makes up what a late turn missed, a fifth of a second at most, and never more than the share in a second', async () => {
    // Timers that fire only when the test says, at whatever time the clock shows then: a busy event loop.
    let now = 0;
    let fire: (() => void) | undefined;
    const timers = {
      setTimeout: (callback: () => void) => (fire = callback),
      clearTimeout: () => (fire = undefined),
    };
    const pacer = new SendPacer(50, () => now, timers);
    const sentAt: number[] = [];
    const lane = (since: number): void =>
      void pacer.take(since).then(() => {
        sentAt.push(now);
        lane(now);
      });
    for (let channel = 0; channel < 100; channel += 1) lane(channel);
    await settle();
    // The timer fires 130 ms late every time, for ten seconds.
    while (now < 10_000) {
      now += 180;
      fire?.();
      await settle();
    }
    const mostInASecond = Math.max(...sentAt.map((at) => sentAt.filter((t) => t >= at && t < at + 1_000).length));
    // One send a second is kept for a channel back from idle.
    expect(mostInASecond).toBe(49);
    // Parts of 50 ms with a turn every 180 ms: without making up, 2 or 3 sends a turn, about 14 a second.
    expect(sentAt.filter((at) => at < 10_000).length).toBeGreaterThanOrEqual(450);
  });

  it('counts a part opened late (a busy event loop) as the part its time falls in, so the rate holds', async () => {
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
    expect(firesIn).toBe(100);
    now = 130;
    fire?.();
    await settle();
    expect(went).toEqual([1, 2]);
    // The part that opened at 130 was due at 100: the next send is due at 200, as if nothing had been late.
    expect(firesIn).toBe(70);
  });
});
