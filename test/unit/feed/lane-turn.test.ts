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

describe("a lane's turn", () => {
  it('goes to the channel whose entries arrived first, though its message was asked for last', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const went: string[] = [];
    const ask = (channelId: string, ...receivedAt: number[]) =>
      new LaneTurn(pacer, time.now).take(messageOf(channelId, ...receivedAt)).then(() => went.push(channelId));
    const now = time.now();
    // This second's one send goes to whoever asks first; then the survivor's own channel, which posted a moment
    // ago, writes its next message down before the channel taken over (its entries waited through the hand-over).
    void ask('first', now);
    void ask('own', now - 500);
    void ask('taken-over', now - 4_000, now - 300);
    await settle();
    expect(went).toEqual(['first']);
    await time.advance(1_000, settle);
    expect(went).toEqual(['first', 'taken-over']);
    await time.advance(1_000, settle);
    expect(went).toEqual(['first', 'taken-over', 'own']);
  });

  it('gives each channel with work a post in turn: one that just posted waits, however old its backlog', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const went: string[] = [];
    const backlogged = new LaneTurn(pacer, time.now);
    const quiet = new LaneTurn(pacer, time.now);
    const now = time.now();
    // Its backlog is a minute old; it posts now, then asks for its next message of that backlog.
    expect(await backlogged.take(messageOf('backlogged', now - 60_000))).toBe(true);
    backlogged.sent(snowflakeAt(now));
    void backlogged.take(messageOf('backlogged', now - 59_000)).then(() => went.push('backlogged'));
    await time.advance(100, settle);
    // Its entry arrived after the backlog and before that post: it has waited longer than the channel that posted.
    void quiet.take(messageOf('quiet', now - 10_000)).then(() => went.push('quiet'));
    await time.advance(1_000, settle);
    await time.advance(1_000, settle);
    expect(went).toEqual(['quiet', 'backlogged']);
  });

  it("counts a resend answered with the last owner's post from when that post was made", async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const went: string[] = [];
    const now = time.now();
    const takenOver = new LaneTurn(pacer, time.now);
    const own = new LaneTurn(pacer, time.now);
    expect(await takenOver.take(messageOf('taken-over', now - 5_000))).toBe(true);
    // Discord answers the resend with the post made 3 s ago, before the failover.
    takenOver.sent(snowflakeAt(now - 3_000));
    void own.take(messageOf('own', now - 2_000)).then(() => went.push('own'));
    await settle();
    void takenOver.take(messageOf('taken-over', now - 4_000)).then(() => went.push('taken-over'));
    await time.advance(1_000, settle);
    await time.advance(1_000, settle);
    expect(went).toEqual(['taken-over', 'own']);
  });

  it('counts an entry stamped ahead of this clock (another host) as waiting from now, not behind every other', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const went: string[] = [];
    const ask = (channelId: string, receivedAt: number) =>
      new LaneTurn(pacer, time.now).take(messageOf(channelId, receivedAt)).then(() => went.push(channelId));
    void ask('first', time.now());
    await settle();
    // Asked a moment apart: the skewed stamp counts as this moment, so it keeps its place before the later ask.
    void ask('skewed', time.now() + 60_000);
    await time.advance(1, settle);
    void ask('later', time.now());
    await time.advance(1_000, settle);
    await time.advance(1_000, settle);
    expect(went).toEqual(['first', 'skewed', 'later']);
  });

  it('is withdrawn when its lane stops: the send waiting for it is not made', async () => {
    const time = new ManualTime();
    const pacer = new SendPacer(1, time.now, time);
    const busy = new LaneTurn(pacer, time.now);
    expect(await busy.take(messageOf('busy', time.now()))).toBe(true);
    const stopping = new LaneTurn(pacer, time.now);
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
