import { describe, expect, it } from 'vitest';

import { LaneTurn } from '../../../src/feed/lane-turn.js';
import type { Outgoing } from '../../../src/feed/outgoing-message.js';
import { SendPacer } from '../../../src/feed/send-pacer.js';
import type { QueuedEntry } from '../../../src/store/deliveries.js';
import { ManualTime } from '../../helpers/manual-time.js';

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A snowflake Discord would have made at `ms`. */
const snowflakeAt = (ms: number) => ((BigInt(ms) - 1_420_070_400_000n) << 22n).toString();

/** A message of entries that arrived at `receivedAt` (one entry each), ready to send. */
function messageOf(channelId: string, ...receivedAt: number[]): Outgoing {
  const entries: QueuedEntry[] = receivedAt.map((at, index) => ({
    hookId: 'h1',
    guildId: '222222222222222222',
    deliveryId: `${channelId}-${index}`,
    event: 'modcall',
    rawBody: '{}',
    receivedAt: at,
    seq: index + 1,
    channelId,
    writtenNonce: null,
  }));
  return { kind: 'update', entries, nonce: `nonce-${channelId}`, run: () => Promise.resolve('done') };
}

/** A pacer of one send a second on a manual clock, and the order in which the turns asked through it went. */
function onePerSecond() {
  const time = new ManualTime();
  const pacer = new SendPacer(1, time.now, time);
  const went: string[] = [];
  return {
    time,
    went,
    turn: () => new LaneTurn(pacer, time.now),
    /** `turn` asks for a message of entries that arrived at `receivedAt`; noted in `went` once it may go. */
    ask: (turn: LaneTurn, channelId: string, ...receivedAt: number[]): void => {
      void turn.take(messageOf(channelId, ...receivedAt)).then((granted) => granted && went.push(channelId));
    },
    /** Lets the next `count` sends go: a send counts for 1,010 ms (send-pacer.ts, LEAVING_MS). */
    seconds: async (count: number): Promise<void> => {
      for (let second = 0; second < count; second += 1) await time.advance(1_010, settle);
    },
  };
}

describe("a lane's turn", () => {
  it('goes to the channel whose entries arrived first, though its message was asked for last', async () => {
    const { time, went, turn, ask, seconds } = onePerSecond();
    const now = time.now();
    // This second's one send goes to whoever asks first; then the survivor's own channel, which posted a moment
    // ago, writes its next message down before the channel taken over (its entries waited through the hand-over).
    ask(turn(), 'first', now);
    ask(turn(), 'own', now - 500);
    ask(turn(), 'taken-over', now - 4_000, now - 300);
    await settle();
    expect(went).toEqual(['first']);
    await seconds(1);
    expect(went).toEqual(['first', 'taken-over']);
    await seconds(1);
    expect(went).toEqual(['first', 'taken-over', 'own']);
  });

  it('gives each channel with work a post in turn: one that just posted waits, however old its backlog', async () => {
    const { time, went, turn, ask, seconds } = onePerSecond();
    const backlogged = turn();
    const now = time.now();
    // Its backlog is a minute old; it posts now, then asks for its next message of that backlog.
    expect(await backlogged.take(messageOf('backlogged', now - 60_000))).toBe(true);
    backlogged.sent(snowflakeAt(now));
    ask(backlogged, 'backlogged', now - 59_000);
    await time.advance(100, settle);
    // Its entry arrived after the backlog and before that post: it has waited longer than the channel that posted.
    ask(turn(), 'quiet', now - 10_000);
    await seconds(2);
    expect(went).toEqual(['quiet', 'backlogged']);
  });

  it("counts a resend answered with the last owner's post from when that post was made", async () => {
    const { time, went, turn, ask, seconds } = onePerSecond();
    const now = time.now();
    const takenOver = turn();
    expect(await takenOver.take(messageOf('taken-over', now - 5_000))).toBe(true);
    // Discord answers the resend with the post made 3 s ago, before the failover.
    takenOver.sent(snowflakeAt(now - 3_000));
    // A channel of this process's own that posted 2 s ago and has more waiting since before that post.
    const own = turn();
    const ownFirst = own.take(messageOf('own', now - 6_000));
    await seconds(1);
    expect(await ownFirst).toBe(true);
    own.sent(snowflakeAt(now - 2_000));
    ask(own, 'own', now - 2_500);
    await settle();
    ask(takenOver, 'taken-over', now - 4_000);
    await seconds(2);
    expect(went).toEqual(['taken-over', 'own']);
  });

  it('serves a channel back from idle before the busy channels that posted in the last 5 s', async () => {
    const { time, went, turn, ask, seconds } = onePerSecond();
    const now = time.now();
    // Three busy channels posted 3, 2 and 1 s ago and have more waiting; then a quiet channel (a new lane: an idle
    // one is dropped) gets one case. The first to ask goes at once: nothing was sent for a second.
    const busy = ['busy-3', 'busy-2', 'busy-1'].map((channelId) => ({ channelId, turn: turn() }));
    for (const lane of busy) {
      const first = lane.turn.take(messageOf(lane.channelId, now - 10_000));
      await seconds(1);
      expect(await first).toBe(true);
      lane.turn.sent(snowflakeAt(time.now()));
    }
    for (const lane of busy) ask(lane.turn, lane.channelId, now - 9_000);
    await settle();
    await time.advance(10, settle);
    ask(turn(), 'quiet', time.now());
    await seconds(4);
    expect(went).toEqual(['busy-3', 'quiet', 'busy-2', 'busy-1']);
  });

  it('sends the first message of a channel back from idle at once while busy channels spend the share, not its next', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(50, time.now, time);
    // 100 busy channels, each asking for its next message as soon as its last was sent.
    const keepSending = (turn: LaneTurn, channelId: string): void =>
      void turn.take(messageOf(channelId, time.now())).then((granted) => {
        if (!granted) return;
        turn.sent(undefined);
        keepSending(turn, channelId);
      });
    for (let channel = 0; channel < 100; channel += 1) keepSending(new LaneTurn(pacer, time.now), `busy-${channel}`);
    await time.advance(3_000, settle);
    const quiet = new LaneTurn(pacer, time.now);
    const wentAt: number[] = [];
    const askedAt = time.now();
    void quiet.take(messageOf('quiet', askedAt)).then(() => wentAt.push(time.now()));
    await settle();
    expect(wentAt).toEqual([askedAt]);
    quiet.sent(undefined);
    // Its next message waits its turn behind the busy channels that waited longer.
    void quiet.take(messageOf('quiet', time.now())).then(() => wentAt.push(time.now()));
    await time.advance(50, settle);
    expect(wentAt).toEqual([askedAt]);
  });

  it('counts an entry stamped ahead of this clock (another host) as waiting from now, not behind every other', async () => {
    const { time, went, turn, ask, seconds } = onePerSecond();
    ask(turn(), 'first', time.now());
    await settle();
    // Asked a moment apart: the skewed stamp counts as this moment, so it keeps its place before the later ask.
    ask(turn(), 'skewed', time.now() + 60_000);
    await time.advance(1, settle);
    ask(turn(), 'later', time.now());
    await seconds(2);
    expect(went).toEqual(['first', 'skewed', 'later']);
  });

  it('is withdrawn when its lane stops: the send waiting for it is not made', async () => {
    const { time, turn } = onePerSecond();
    expect(await turn().take(messageOf('busy', time.now()))).toBe(true);
    const stopping = turn();
    const waiting = stopping.take(messageOf('stopping', time.now()));
    stopping.withdraw();
    expect(await waiting).toBe(false);
    expect(await stopping.take(messageOf('stopping', time.now()))).toBe(false);
  });

  it('is always granted without a pacer (one process alone with discord.js limiting)', async () => {
    const time = new ManualTime();
    expect(await new LaneTurn(undefined, time.now).take(messageOf('alone', time.now()))).toBe(true);
  });
});
