import fc from 'fast-check';
import { describe, expect, it } from 'vitest';

import type { Timers } from '../../../src/base/timers.js';
import { SendPacer } from '../../../src/feed/send-pacer.js';
import { ManualTime } from '../../helpers/manual-time.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * @discordjs/rest's own count of the global limit, as its `runRequest` keeps it: a second starts at the first request
 * after the last one ended, and a request past the share in a running second is held until that second ends (plus
 * its 50 ms offset). The feed's sends must never be held there: the pacer already spread them, and a held send
 * holds every other request of the process with it.
 */
class RestGlobalCount {
  private reset = -1;
  private remaining: number;
  held = 0;

  constructor(private readonly perSecond: number) {
    this.remaining = perSecond;
  }

  request(now: number): void {
    if (this.remaining <= 0 && now < this.reset) this.held += 1;
    if (this.reset < now) {
      this.reset = now + 1_000;
      this.remaining = this.perSecond;
    }
    this.remaining -= 1;
  }
}

interface Scene {
  /** How long each busy lane takes between a send and its next ask (its store work), ms. */
  busyGaps: number[];
  /** How long after the pacer lets a send go @discordjs/rest counts it (the lane's work before the request), ms. */
  leaveAfter: number[];
  /** How long after the last one (or the measured seconds' start) each channel back from idle asks, ms. */
  newcomers: number[];
  /** How late the pacer's first timer after half a second fires (a busy event loop), ms. */
  lateBy: number;
}

const SHARE = 50;
const WARM_UP_MS = 2_000;
const MEASURED_MS = 4_000;

const scenes = fc.record({
  busyGaps: fc.array(fc.integer({ min: 0, max: 80 }), { minLength: 60, maxLength: 100 }),
  leaveAfter: fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 20 }),
  // One a second at most: the send kept for them is one a second.
  newcomers: fc.array(fc.integer({ min: 1_010, max: 1_500 }), { minLength: 1, maxLength: 3 }),
  lateBy: fc.integer({ min: 0, max: 250 }),
});

/** The manual clock's timers, but the first one set after `from` fires `lateBy` ms late: the event loop was busy. */
function oneLateTimer(time: ManualTime, from: number, lateBy: number): Timers {
  let late = true;
  return {
    setTimeout(callback, ms) {
      const delay = late && time.now() >= from ? ((late = false), ms + lateBy) : ms;
      return time.setTimeout(callback, delay);
    },
    clearTimeout: (handle) => time.clearTimeout(handle),
  };
}

/** Busy lanes spending the whole share, channels back from idle asking meanwhile: each newcomer's wait, and REST's count. */
async function play(scene: Scene): Promise<{ waits: number[]; rest: RestGlobalCount; sentAt: number[] }> {
  const time = new ManualTime();
  // Late once, before the measured seconds: its sends then go together as they are made up.
  const pacer = new SendPacer(SHARE, time.now, oneLateTimer(time, time.now() + WARM_UP_MS - 1_500, scene.lateBy));
  const rest = new RestGlobalCount(SHARE);
  let sent = 0;
  const sentAt: number[] = [];
  const leave = () => {
    sentAt.push(time.now());
    const skew = scene.leaveAfter[sent % scene.leaveAfter.length] ?? 0;
    sent += 1;
    time.setTimeout(() => rest.request(time.now()), skew);
  };
  const busyLane = (lane: number, since: number): void =>
    void pacer.take(since).then(() => {
      leave();
      time.setTimeout(() => busyLane(lane, time.now()), scene.busyGaps[lane] ?? 0);
    });
  scene.busyGaps.forEach((_, lane) => busyLane(lane, time.now() - lane));
  await time.advance(WARM_UP_MS, settle);

  const waits: number[] = [];
  const measuredFrom = sentAt.length;
  let at: number | undefined;
  for (const gap of scene.newcomers) {
    at = at === undefined ? gap - 1_000 : at + gap;
    time.setTimeout(() => {
      const asked = time.now();
      // A lane's first message counts as having waited 5 s longer than its entries (lane-turn.ts).
      void pacer.take(asked - 5_000, undefined, true).then(() => {
        leave();
        waits.push(time.now() - asked);
      });
    }, at);
  }
  await time.advance(MEASURED_MS, settle);
  return { waits, rest, sentAt: sentAt.slice(measuredFrom) };
}

describe('the send pacer against @discordjs/rest and a channel back from idle', () => {
  it('never has a send held by @discordjs/rest, lets a channel back from idle go at once while the share is spent, and never makes up a late turn twice', async () => {
    await fc.assert(
      fc.asyncProperty(scenes, async (scene) => {
        const { waits, rest, sentAt } = await play(scene);
        expect(rest.held).toBe(0);
        // A late turn's made-up sends went together once; they do not come back together every second after it:
        // at 50 a second no moment has more than two parts' sends (3 and 2, or 3 and 3).
        const together = new Map<number, number>();
        for (const at of sentAt) together.set(at, (together.get(at) ?? 0) + 1);
        expect(Math.max(...together.values())).toBeLessThanOrEqual(6);
        expect(waits).toHaveLength(scene.newcomers.length);
        // The busy lanes leave a send a second for a channel back from idle (send-pacer.ts).
        expect(waits).toEqual(scene.newcomers.map(() => 0));
      }),
      { numRuns: 50 },
    );
  }, 60_000);
});
