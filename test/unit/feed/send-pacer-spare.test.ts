import { describe, expect, it } from 'vitest';

import { SendPacer } from '../../../src/feed/send-pacer.js';
import { ManualTime } from '../../helpers/manual-time.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("the send pacer's spare sends (a replay's)", () => {
  it('go only when no lane waits, at most half of a part, and never past the rate in a second', async () => {
    const time = new ManualTime();
    // 20 a second: a send every 50 ms, every other one at most a spare send.
    const pacer = new SendPacer(20, time.now, time);
    const start = time.now();
    const since = () => time.now() - start;
    const sent: Array<{ kind: 'lane' | 'spare'; at: number }> = [];
    // A replay that asks again as soon as its send went, as a running replay does.
    const replay = (): void =>
      void pacer.takeSpare().then(() => {
        sent.push({ kind: 'spare', at: since() });
        replay();
      });
    replay();
    await settle();
    // Lanes with a backlog arrive: they go before the replay, whatever it asked first.
    const lane = (waitingSince: number): void =>
      void pacer.take(waitingSince).then(() => {
        sent.push({ kind: 'lane', at: since() });
        if (since() < 1_000) lane(time.now());
      });
    for (let n = 0; n < 4; n += 1) lane(start + n);
    await settle();
    await time.advance(2_000, settle);

    const inFirstSecond = sent.filter((send) => send.at >= 200 && send.at < 1_000);
    // While lanes keep a backlog, each part goes to them; the replay took no send in those parts.
    expect(inFirstSecond.every((send) => send.kind === 'lane')).toBe(true);
    // Once the lanes are idle, the replay takes every other send: the rest is left for live work.
    const replayedLater = sent.filter((send) => send.kind === 'spare' && send.at >= 1_400 && send.at < 2_000);
    expect(replayedLater.length).toBe(6);
    const mostInASecond = Math.max(
      ...sent.map(({ at }) => sent.filter((send) => send.at >= at && send.at < at + 1_000).length),
    );
    expect(mostInASecond).toBeLessThanOrEqual(20);
  });

  it('withdraws a spare send whose replay stopped', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    expect(await pacer.take(0)).toBe(true);
    const stopping = new AbortController();
    const spare = pacer.takeSpare(stopping.signal);
    stopping.abort();
    expect(await spare).toBe(false);
    await time.advance(5_000, settle);
    expect(time.waiting).toBe(0);
  });
});
