import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { FeedWorker } from '../../../src/feed/feed-worker.js';
import { SendError, type FeedMessageBody, type SendFailure } from '../../../src/feed/send-failure.js';
import { openStore, type Store } from '../../../src/store/open-store.js';
import { SAMPLE_DELIVERIES } from '../../fixtures/deliveries.js';
import { captureLogs } from '../../helpers/capture-logs.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const GUILD = '222222222222222222';
const CHANNEL_A = '300000000000000001';
const CHANNEL_B = '300000000000000002';

interface Sent {
  channelId: string;
  body: FeedMessageBody;
}

/** A sender that records what the feed sent and fails as a test tells it to. */
function recordingSender() {
  const sent: Sent[] = [];
  const failures = new Map<string, SendFailure>();
  let failNext = 0;
  return {
    sent,
    failures,
    failNextSends(count: number) {
      failNext = count;
    },
    send: async (channelId: string, body: FeedMessageBody) => {
      await new Promise((resolve) => setImmediate(resolve));
      const failure = failures.get(channelId);
      if (failure) throw new SendError(failure);
      if (failNext > 0) {
        failNext -= 1;
        throw new SendError({ kind: 'retry', reason: 'Discord 500' });
      }
      sent.push({ channelId, body });
    },
  };
}

/**
 * The worker's timers (batch window, retries) and clock are fake: time moves only here, 5 ms a step, so the
 * tests never wait in real time. setImmediate stays real: the store's I/O and the worker's pump need turns of
 * the real event loop.
 */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

/** Moves fake time `ms` forward, letting I/O and pumps run between steps. */
async function advance(ms: number): Promise<void> {
  for (let passed = 0; passed < ms; passed += 5) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(5);
  }
}

/** Moves fake time on until `check` holds; gives up after `realTimeoutMs` of real time (SQLite I/O is real). */
async function until(check: () => boolean, realTimeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + realTimeoutMs;
  while (!check()) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await advance(5);
  }
}

function modcall(id: string) {
  return {
    hookId: 'h1',
    guildId: GUILD,
    deliveryId: id,
    event: 'modcall',
    receivedAt: 1,
    rawBody: JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id }),
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

async function setup(storeUrl = 'memory://', batchWindow = { quietMs: 20, maxMs: 200 }) {
  const store = await openStore(storeUrl);
  const sender = recordingSender();
  const worker = new FeedWorker({
    outbox: store.outbox,
    seen: store.seen,
    guilds: store.guilds,
    sends: store.sends,
    send: sender.send,
    logger: captureLogs().logger,
    clock: () => Date.now(),
    backoff: { baseMs: 5, capMs: 20 },
    batchWindow,
  });
  cleanups.push(
    () => store.close(),
    () => worker.stop(),
  );
  return { store, sender, worker };
}

async function routeAll(store: Store, channelId: string) {
  await store.guilds.update(GUILD, (s) => ({ ...s, defaultChannelId: channelId }));
}

const deliveryIdsOf = (sent: Sent[]) =>
  sent.flatMap((s) => s.body.embeds.map((e) => /Delivery (\S+)/.exec(e.footer?.text ?? '')?.[1]));

describe('the outbox worker', () => {
  it('posts a burst in order, ten embeds a message, and empties the outbox', async () => {
    const { store, sender, worker } = await setup();
    await routeAll(store, CHANNEL_A);
    const ids = Array.from({ length: 25 }, (_, i) => `d${i}`);
    for (const id of ids) await store.outbox.append(modcall(id));
    worker.start();
    await until(() => store.outbox.size === 0);
    expect(sender.sent.map((s) => s.body.embeds.length)).toEqual([10, 10, 5]);
    expect(deliveryIdsOf(sender.sent)).toEqual(ids);
    expect(new Set(sender.sent.map((s) => s.body.nonce)).size).toBe(3);
    expect(store.seen.has('h1', 'd24')).toBe(true);
  });

  it('keeps entries without a route, counts them, and posts them once a route is set', async () => {
    const { store, sender, worker } = await setup();
    worker.start();
    await store.outbox.append(modcall('u1'));
    await advance(20);
    expect(worker.statusOf(GUILD)).toMatchObject({ waiting: 1, unrouted: { modcall: 1 } });
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_B } }));
    await until(() => sender.sent.length === 1);
    expect(sender.sent[0]?.channelId).toBe(CHANNEL_B);
  });

  it('retries a failing send with the same nonce and posts each entry once', async () => {
    const { store, sender, worker } = await setup();
    await routeAll(store, CHANNEL_A);
    for (const id of ['r1', 'r2', 'r3']) await store.outbox.append(modcall(id));
    sender.failNextSends(4);
    worker.start();
    await until(() => store.outbox.size === 0);
    expect(deliveryIdsOf(sender.sent)).toEqual(['r1', 'r2', 'r3']);
  });

  it('marks a 403 channel broken, keeps its entries, lets other channels flow, and resumes on re-route', async () => {
    const { store, sender, worker } = await setup();
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_A, 'case.created': CHANNEL_B } }));
    sender.failures.set(CHANNEL_A, { kind: 'broken', status: 403, code: 50001, reason: 'Missing Access' });
    await store.outbox.append(modcall('b1'));
    await store.outbox.append({
      ...modcall('c1'),
      event: 'case.created',
      rawBody: JSON.stringify({ ...SAMPLE_DELIVERIES['case.created'], id: 'c1' }),
    });
    worker.start();
    await until(() => sender.sent.length === 1);
    expect(sender.sent[0]?.channelId).toBe(CHANNEL_B);
    await until(() => worker.statusOf(GUILD).broken.length === 1);
    expect(worker.statusOf(GUILD)).toMatchObject({ waiting: 1, broken: [{ channelId: CHANNEL_A, status: 403 }] });

    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { ...s.routes, modcall: CHANNEL_B } }));
    await until(() => store.outbox.size === 0);
    expect(deliveryIdsOf(sender.sent)).toEqual(['c1', 'b1']);
  });

  it('after a crash between send and confirm, sends the same message again under the same nonce', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const url = `sqlite://${dir.path}/feed.sqlite`;
    const first = await openStore(url);
    await routeAll(first, CHANNEL_A);
    for (const id of ['k1', 'k2']) await first.outbox.append(modcall(id));
    // The first process wrote down its message, sent it, and died before confirming.
    await first.sends.save({ channelId: CHANNEL_A, nonce: 'nonce-of-the-first-try', seqs: [0, 1] });
    await first.outbox.append(modcall('k3'));
    await first.close();

    const { store, sender, worker } = await setup(url);
    worker.start();
    await until(() => store.outbox.size === 0);
    expect(sender.sent.map((s) => s.body.nonce)[0]).toBe('nonce-of-the-first-try');
    expect(sender.sent.map((s) => s.body.embeds.length)).toEqual([2, 1]);
    expect(deliveryIdsOf(sender.sent)).toEqual(['k1', 'k2', 'k3']);
  });

  it('resends a message written down for a channel the routes no longer name to that channel, under its nonce', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const url = `sqlite://${dir.path}/feed.sqlite`;
    const first = await openStore(url);
    await routeAll(first, CHANNEL_A);
    await first.outbox.append(modcall('m1'));
    await first.sends.save({ channelId: CHANNEL_A, nonce: 'nonce-for-channel-a', seqs: [0] });
    // While the process was down an admin moved the feed to another channel.
    await routeAll(first, CHANNEL_B);
    await first.outbox.append(modcall('m2'));
    await first.close();

    const { store, sender, worker } = await setup(url);
    worker.start();
    await until(() => store.outbox.size === 0);
    const sent = sender.sent.map((s) => [s.channelId, s.body.nonce === 'nonce-for-channel-a']).sort();
    expect(sent).toEqual([
      [CHANNEL_A, true],
      [CHANNEL_B, false],
    ]);
  });

  it('lets a message with room wait for the rest of a burst that is still arriving', async () => {
    const { store, sender, worker } = await setup('memory://', { quietMs: 20, maxMs: 200 });
    await routeAll(store, CHANNEL_A);
    worker.start();
    const ids = Array.from({ length: 25 }, (_, i) => `t${i}`);
    for (const id of ids) {
      await store.outbox.append(modcall(id));
      await advance(5);
    }
    await until(() => store.outbox.size === 0);
    expect(sender.sent.map((s) => s.body.embeds.length)).toEqual([10, 10, 5]);
    expect(deliveryIdsOf(sender.sent)).toEqual(ids);
  });

  it('finds the one entry of a refused batch, posts the others in order, and keeps the refused one', async () => {
    const store = await openStore('memory://');
    const sent: Sent[] = [];
    const worker = new FeedWorker({
      outbox: store.outbox,
      seen: store.seen,
      guilds: store.guilds,
      sends: store.sends,
      logger: captureLogs().logger,
      clock: () => Date.now(),
      send: async (channelId, body) => {
        await new Promise((resolve) => setImmediate(resolve));
        // As Discord answers 400 to a body it will not take: here, any message carrying delivery "bad".
        if (body.embeds.some((embed) => embed.footer?.text?.endsWith('Delivery bad'))) {
          throw new SendError({ kind: 'rejected', status: 400, reason: 'Invalid Form Body' });
        }
        sent.push({ channelId, body });
      },
    });
    cleanups.push(
      () => store.close(),
      () => worker.stop(),
    );
    await routeAll(store, CHANNEL_A);
    for (const id of ['ok1', 'ok2', 'bad', 'ok3']) await store.outbox.append(modcall(id));
    worker.start();
    await until(() => deliveryIdsOf(sent).length === 3);
    expect(deliveryIdsOf(sent)).toEqual(['ok1', 'ok2', 'ok3']);
    await until(() => store.outbox.size === 1);
    expect(store.outbox.list().map((e) => e.deliveryId)).toEqual(['bad']);
    expect(worker.statusOf(GUILD).waiting).toBe(1);
  });
});
