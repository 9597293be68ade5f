import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { RUNTIME_TIMERS } from '../../../src/base/timers.js';
import { SendError, type FeedMessageBody, type SendFailure } from '../../../src/discord/posting/send-failure.js';
import { STORE_MODULES } from '../../../src/features/index.js';
import type { CardPlanner } from '../../../src/feed/card-plan.js';
import { FeedWorker, type FeedWorkerDeps } from '../../../src/feed/feed-worker.js';
import { SendPacer } from '../../../src/feed/send-pacer.js';
import { serializeWrittenPost } from '../../../src/feed/written-message.js';
import { partitionOf, type FeedOwnership, type OwnershipListener } from '../../../src/store/coordination.js';
import type { NewDelivery } from '../../../src/store/deliveries.js';
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
 * tests never wait in real time. setImmediate stays real: the pumps need turns of the real event loop.
 */
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});

/** Moves fake time `ms` forward, letting the store's writes and the lanes run between steps. */
async function advance(ms: number): Promise<void> {
  for (let passed = 0; passed < ms; passed += 5) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(5);
  }
}

/** Moves fake time on until `check` holds; gives up after `realTimeoutMs` of real time. */
async function until(check: () => boolean | Promise<boolean>, realTimeoutMs = 5000): Promise<void> {
  const deadline = performance.now() + realTimeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error('condition not met in time');
    await advance(5);
  }
}

function modcall(id: string): NewDelivery {
  return {
    hookId: 'h1',
    guildId: GUILD,
    deliveryId: id,
    event: 'modcall',
    receivedAt: Date.now(),
    rawBody: JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id }),
  };
}

function caseCreated(id: string): NewDelivery {
  return {
    ...modcall(id),
    event: 'case.created',
    rawBody: JSON.stringify({ ...SAMPLE_DELIVERIES['case.created'], id }),
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  vi.useRealTimers();
});

async function setup(storeUrl = 'memory://', batchWindow = { quietMs: 20, maxMs: 200 }) {
  const store = await openStore(storeUrl, STORE_MODULES, () => Date.now());
  const sender = recordingSender();
  const worker = new FeedWorker({
    queue: store.deliveries,
    guilds: store.guilds,
    signals: store.signals,
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
const openCount = (store: Store) => store.deliveries.countOpen();

describe('the feed worker', () => {
  it('posts a burst in order, ten embeds a message, and leaves nothing waiting', async () => {
    const { store, sender, worker } = await setup();
    await routeAll(store, CHANNEL_A);
    const ids = Array.from({ length: 25 }, (_, i) => `d${i}`);
    for (const id of ids) await store.deliveries.accept(modcall(id));
    await worker.start();
    await until(async () => (await openCount(store)) === 0);
    expect(sender.sent.map((s) => s.body.embeds.length)).toEqual([10, 10, 5]);
    expect(deliveryIdsOf(sender.sent)).toEqual(ids);
    expect(new Set(sender.sent.map((s) => s.body.nonce)).size).toBe(3);
    expect(await store.deliveries.stateOf('h1', 'd24')).toBe('posted');
  });

  it('keeps entries without a route as held, counts them, and posts them once a route is set', async () => {
    const { store, sender, worker } = await setup();
    await worker.start();
    await store.deliveries.accept(modcall('u1'));
    await advance(20);
    expect(await store.deliveries.statusOf(GUILD)).toMatchObject({ waiting: 0, unrouted: { modcall: 1 } });
    expect(await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 })).toMatchObject([
      { deliveryId: 'u1', kind: 'unrouted' },
    ]);
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_B } }));
    await until(() => sender.sent.length === 1);
    expect(sender.sent[0]?.channelId).toBe(CHANNEL_B);
  });

  it('retries a failing send with the same nonce and posts each entry once', async () => {
    const { store, sender, worker } = await setup();
    await routeAll(store, CHANNEL_A);
    for (const id of ['r1', 'r2', 'r3']) await store.deliveries.accept(modcall(id));
    sender.failNextSends(4);
    await worker.start();
    await until(async () => (await openCount(store)) === 0);
    expect(deliveryIdsOf(sender.sent)).toEqual(['r1', 'r2', 'r3']);
  });

  it('remembers a failing channel and when to try it again in the store', async () => {
    const { store, sender, worker } = await setup();
    await routeAll(store, CHANNEL_A);
    sender.failures.set(CHANNEL_A, { kind: 'retry', reason: 'Discord 503' });
    await worker.start();
    await store.deliveries.accept(modcall('f1'));
    await until(async () => (await store.deliveries.statusOf(GUILD)).retrying.length === 1);
    const [retrying] = (await store.deliveries.statusOf(GUILD)).retrying;
    expect(retrying).toMatchObject({ channelId: CHANNEL_A, failures: 1 });
    expect(await store.deliveries.retryAtOf(CHANNEL_A)).toBe(retrying?.nextTryAt);
    sender.failures.delete(CHANNEL_A);
    await until(async () => (await openCount(store)) === 0);
    expect((await store.deliveries.statusOf(GUILD)).retrying).toEqual([]);
  });

  it('parks the entries of a 403 channel, lets other channels flow, and resumes on re-route', async () => {
    const { store, sender, worker } = await setup();
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_A, 'case.created': CHANNEL_B } }));
    sender.failures.set(CHANNEL_A, { kind: 'broken', status: 403, code: 50001, reason: 'Missing Access' });
    await store.deliveries.accept(modcall('b1'));
    await store.deliveries.accept(caseCreated('c1'));
    await worker.start();
    await until(() => sender.sent.length === 1);
    expect(sender.sent[0]?.channelId).toBe(CHANNEL_B);
    await until(async () => (await store.deliveries.statusOf(GUILD)).broken.length === 1);
    expect(await store.deliveries.statusOf(GUILD)).toMatchObject({
      waiting: 0,
      heldBroken: 1,
      broken: [{ channelId: CHANNEL_A, status: 403 }],
    });
    // A new entry for the broken channel is kept aside at once, not sent into the wall.
    await store.deliveries.accept(modcall('b2'));
    expect((await store.deliveries.statusOf(GUILD)).heldBroken).toBe(2);

    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { ...s.routes, modcall: CHANNEL_B } }));
    await until(async () => (await openCount(store)) === 0);
    expect(deliveryIdsOf(sender.sent)).toEqual(['c1', 'b1', 'b2']);
    expect((await store.deliveries.statusOf(GUILD)).broken).toEqual([]);
  });

  it("holds only the entry whose card another channel refuses, never the lane's own channel", async () => {
    const store = await openStore('memory://', STORE_MODULES, () => Date.now());
    const sender = recordingSender();
    // The cards: c-card changes a card in channel B (its route has changed since), which Discord refuses for good.
    const cards: CardPlanner = {
      plan: (_guildId, rendered) => {
        const [first] = rendered;
        if (first?.item.deliveryId === 'c-card') {
          const refused = new SendError(
            { kind: 'broken', status: 403, code: 50013, reason: 'Discord 403: Missing Permissions' },
            CHANNEL_B,
          );
          return Promise.resolve({ kind: 'update', entry: first.item, run: () => Promise.reject(refused) });
        }
        return Promise.resolve({ kind: 'post', items: [...rendered], components: [], cut: false });
      },
      posted: () => Promise.resolve(),
    };
    const worker = new FeedWorker({
      queue: store.deliveries,
      guilds: store.guilds,
      signals: store.signals,
      send: sender.send,
      cards,
      logger: captureLogs().logger,
      clock: () => Date.now(),
      backoff: { baseMs: 5, capMs: 20 },
      batchWindow: { quietMs: 20, maxMs: 200 },
    });
    cleanups.push(
      () => store.close(),
      () => worker.stop(),
    );
    await routeAll(store, CHANNEL_A);
    await store.deliveries.accept(caseCreated('c-card'));
    await store.deliveries.accept(caseCreated('c-next'));
    await worker.start();

    await until(async () => (await store.deliveries.statusOf(GUILD)).waiting === 0);
    expect(deliveryIdsOf(sender.sent)).toEqual(['c-next']);
    expect(await store.deliveries.statusOf(GUILD)).toMatchObject({
      waiting: 0,
      heldBroken: 0,
      heldRefused: 1,
      broken: [],
    });
  });

  it('after a crash between send and confirm, sends the same message again under the same nonce', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const url = `sqlite://${dir.path}/feed.sqlite`;
    const first = await openStore(url, STORE_MODULES);
    await routeAll(first, CHANNEL_A);
    for (const id of ['k1', 'k2']) await first.deliveries.accept(modcall(id));
    // The first process wrote down its message, sent it, and died before confirming.
    const written = await first.deliveries.nextFor(CHANNEL_A, 10);
    const seqs = written.map((entry) => entry.seq);
    expect(await first.deliveries.writeDown(CHANNEL_A, 'nonce-of-the-first-try', seqs)).toBe(true);
    await first.deliveries.accept(modcall('k3'));
    await first.close();

    const { store, sender, worker } = await setup(url);
    await worker.start();
    await until(async () => (await openCount(store)) === 0);
    expect(sender.sent.map((s) => s.body.nonce)[0]).toBe('nonce-of-the-first-try');
    expect(sender.sent.map((s) => s.body.embeds.length)).toEqual([2, 1]);
    expect(deliveryIdsOf(sender.sent)).toEqual(['k1', 'k2', 'k3']);
  });

  it('resends a message written down for a channel the routes no longer name to that channel, under its nonce', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const url = `sqlite://${dir.path}/feed.sqlite`;
    const first = await openStore(url, STORE_MODULES);
    await routeAll(first, CHANNEL_A);
    await first.deliveries.accept(modcall('m1'));
    const [m1] = await first.deliveries.nextFor(CHANNEL_A, 1);
    expect(await first.deliveries.writeDown(CHANNEL_A, 'nonce-for-channel-a', [m1?.seq ?? -1])).toBe(true);
    // While the process was down an admin moved the feed to another channel.
    await routeAll(first, CHANNEL_B);
    await first.deliveries.accept(modcall('m2'));
    await first.close();

    const { store, sender, worker } = await setup(url);
    await worker.start();
    await until(async () => (await openCount(store)) === 0);
    const sent = sender.sent.map((s) => [s.channelId, s.body.nonce === 'nonce-for-channel-a']).sort();
    expect(sent).toEqual([
      [CHANNEL_A, true],
      [CHANNEL_B, false],
    ]);
  });

  it('lets a message with room wait for the rest of a burst that is still arriving', async () => {
    const { store, sender, worker } = await setup('memory://', { quietMs: 20, maxMs: 200 });
    await routeAll(store, CHANNEL_A);
    await worker.start();
    const ids = Array.from({ length: 25 }, (_, i) => `t${i}`);
    for (const id of ids) {
      await store.deliveries.accept(modcall(id));
      await advance(5);
    }
    await until(async () => (await openCount(store)) === 0);
    expect(sender.sent.map((s) => s.body.embeds.length)).toEqual([10, 10, 5]);
    expect(deliveryIdsOf(sender.sent)).toEqual(ids);
  });

  it('finds the one entry of a refused batch, posts the others in order, and keeps the refused one listed', async () => {
    const store = await openStore('memory://', STORE_MODULES, () => Date.now());
    const sent: Sent[] = [];
    const worker = new FeedWorker({
      queue: store.deliveries,
      guilds: store.guilds,
      signals: store.signals,
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
    for (const id of ['ok1', 'ok2', 'bad', 'ok3']) await store.deliveries.accept(modcall(id));
    await worker.start();
    await until(() => deliveryIdsOf(sent).length === 3);
    expect(deliveryIdsOf(sent)).toEqual(['ok1', 'ok2', 'ok3']);
    await until(async () => (await store.deliveries.statusOf(GUILD)).heldRefused === 1);
    expect(await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 })).toMatchObject([
      { deliveryId: 'bad', kind: 'refused', detail: 'Invalid Form Body' },
    ]);
    // ok3's post is marked in the store's next commit, which may come after the refusal's.
    await expect.poll(() => openCount(store)).toBe(1);
  });

  it('starts the lanes of a partition gained while the store failed to list the channels with work', async () => {
    const store = await openStore('memory://', STORE_MODULES, () => Date.now());
    const sender = recordingSender();
    // Owns nothing until the test hands it the guild's partition, as a lease taken over from a killed process.
    let listener: OwnershipListener | undefined;
    let owned = false;
    const ownership: FeedOwnership = {
      owns: () => owned,
      leaseOf: (guildId) => (owned ? { partition: partitionOf(guildId), epoch: 0 } : undefined),
      start: (l) => {
        listener = l;
        return Promise.resolve();
      },
      stop: () => Promise.resolve(),
    };
    // The read that follows the gain fails once (a pool busy with the new lanes, a statement timeout).
    let failReads = 0;
    const queue = Object.create(store.deliveries) as Store['deliveries'];
    queue.channelsWithWork = () =>
      failReads-- > 0 ? Promise.reject(new Error('timeout exceeded')) : store.deliveries.channelsWithWork();
    const worker = new FeedWorker({
      queue,
      guilds: store.guilds,
      signals: store.signals,
      send: sender.send,
      logger: captureLogs().logger,
      clock: () => Date.now(),
      backoff: { baseMs: 5, capMs: 20 },
      ownership,
    });
    cleanups.push(
      () => store.close(),
      () => worker.stop(),
    );
    await routeAll(store, CHANNEL_A);
    // Accepted while another process owned the partition: its signal went by, only a read of the store finds it.
    await store.deliveries.accept(modcall('g1'));
    await worker.start();
    await advance(50);
    expect(sender.sent).toEqual([]);
    failReads = 1;
    owned = true;
    listener?.gained([partitionOf(GUILD)]);
    // Within seconds, not at the 30 s safety-net rescan (real setInterval here, so it never comes in this test).
    await until(async () => (await openCount(store)) === 0);
    expect(deliveryIdsOf(sender.sent)).toEqual(['g1']);
  });

  it('posts a channel again once its lease is back, when its lane stopped on the lease while poked: each entry once', async () => {
    const store = await openStore('memory://', STORE_MODULES, () => Date.now());
    const logs = captureLogs();
    // The lease on the guild's partition, as the store's coordination reports it: lost and regained by the test.
    let listener: OwnershipListener | undefined;
    let owned = true;
    const ownership: FeedOwnership = {
      owns: () => owned,
      leaseOf: (guildId) => (owned ? { partition: partitionOf(guildId), epoch: 1 } : undefined),
      start: (l) => {
        listener = l;
        l.gained([partitionOf(GUILD)]);
        return Promise.resolve();
      },
      stop: () => Promise.resolve(),
    };
    // Discord as it treats a nonce: a resend under it is answered with the message made the first time.
    const channel = new Map<string, Sent>();
    let release: (() => void) | undefined;
    const firstSendHeld = new Promise<void>((resolve) => (release = resolve));
    const send = async (channelId: string, body: FeedMessageBody) => {
      if (channel.size === 0) await firstSendHeld;
      await new Promise((resolve) => setImmediate(resolve));
      if (!channel.has(body.nonce)) channel.set(body.nonce, { channelId, body });
    };
    const worker = new FeedWorker({
      queue: store.deliveries,
      guilds: store.guilds,
      signals: store.signals,
      send,
      logger: logs.logger,
      clock: () => Date.now(),
      backoff: { baseMs: 5, capMs: 20 },
      batchWindow: { quietMs: 0, maxMs: 0 },
      ownership,
    });
    cleanups.push(
      () => store.close(),
      () => worker.stop(),
    );
    await routeAll(store, CHANNEL_A);
    await worker.start();
    await store.deliveries.accept(modcall('p1'));
    await until(() => release !== undefined && worker.laneCount === 1);
    await advance(20);
    // More work while the first message is being sent: the lane is poked during its pass.
    await store.deliveries.accept(modcall('p2'));
    await advance(20);

    // The lease is lost while the send is under way: the send ends, and the lane stops before confirming it.
    owned = false;
    release?.();
    await until(() => logs.text().includes('no longer holds the lease'));
    await advance(20);

    // The lease is back (taken again after the store's hiccup), and more work comes.
    owned = true;
    listener?.gained([partitionOf(GUILD)]);
    await store.deliveries.accept(modcall('p3'));
    await until(async () => (await openCount(store)) === 0);
    expect(deliveryIdsOf([...channel.values()])).toEqual(['p1', 'p2', 'p3']);
  });

  it('keeps a lane only while its channel has work', async () => {
    const { store, worker } = await setup();
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_A, 'case.created': CHANNEL_B } }));
    await worker.start();
    expect(worker.laneCount).toBe(0);
    await store.deliveries.accept(modcall('l1'));
    await until(() => worker.laneCount === 1);
    await until(async () => (await openCount(store)) === 0 && worker.laneCount === 0);
  });
});

describe("the feed worker sharing Discord's rate between its lanes", () => {
  /** A snowflake Discord would have made at `ms`. */
  const snowflakeAt = (ms: number) => ((BigInt(ms) - 1_420_070_400_000n) << 22n).toString();

  async function pacedWorker(store: Store, send: FeedWorkerDeps['send'], pacer: SendPacer) {
    const worker = new FeedWorker({
      queue: store.deliveries,
      guilds: store.guilds,
      signals: store.signals,
      send,
      logger: captureLogs().logger,
      clock: () => Date.now(),
      backoff: { baseMs: 5, capMs: 20 },
      batchWindow: { quietMs: 0, maxMs: 0 },
      pacer,
    });
    cleanups.push(() => worker.stop());
    await worker.start();
    return worker;
  }

  it('withdraws a send still waiting for its turn when the worker stops; the next owner sends it, once', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const store = await openStore(`sqlite://${dir.path}/feed.sqlite`, STORE_MODULES, () => Date.now());
    cleanups.push(() => store.close());
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_A, 'case.created': CHANNEL_B } }));
    await store.deliveries.accept(modcall('w1'));
    await store.deliveries.accept(caseCreated('w2'));
    const first = recordingSender();
    // One send a second: one channel's message goes, the other's is written down and waits for the next second.
    const worker = await pacedWorker(store, first.send, new SendPacer(1, () => Date.now(), RUNTIME_TIMERS));
    const waitingIn = (sent: Sent[]) => (sent[0]?.channelId === CHANNEL_A ? CHANNEL_B : CHANNEL_A);
    await until(async () => {
      if (first.sent.length !== 1) return false;
      const [head] = await store.deliveries.nextFor(waitingIn(first.sent), 10);
      return head?.writtenNonce !== null && head?.writtenNonce !== undefined;
    });
    const waiting = waitingIn(first.sent);
    const [written] = await store.deliveries.nextFor(waiting, 10);

    // Stopping does not wait for the next second: the waiting send is withdrawn, never made.
    await worker.stop();
    await advance(2_000);
    expect(first.sent.map((sent) => sent.channelId)).toEqual([waiting === CHANNEL_A ? CHANNEL_B : CHANNEL_A]);

    const next = recordingSender();
    await pacedWorker(store, next.send, new SendPacer(1, () => Date.now(), RUNTIME_TIMERS));
    await until(async () => (await openCount(store)) === 0);
    expect(next.sent.map((sent) => [sent.channelId, sent.body.nonce])).toEqual([[waiting, written?.writtenNonce]]);
  });

  it("keeps a channel's turn when its resend was answered with the post its last owner made: its entries waited longer", async () => {
    const store = await openStore('memory://', STORE_MODULES, () => Date.now());
    cleanups.push(() => store.close());
    await store.guilds.update(GUILD, (s) => ({ ...s, routes: { modcall: CHANNEL_A, 'case.created': CHANNEL_B } }));
    // The last owner wrote a message down a minute ago, sent it, and died before it heard Discord's answer.
    const arrived = (delivery: NewDelivery, agoMs: number) => ({ ...delivery, receivedAt: Date.now() - agoMs });
    await store.deliveries.accept(arrived(modcall('a1'), 61_000));
    const [a1] = await store.deliveries.nextFor(CHANNEL_A, 10);
    const postedBefore = Date.now() - 60_000;
    const embed = { title: 'a1' };
    const message = serializeWrittenPost({
      body: { nonce: 'nonce-of-the-last-owner', embeds: [embed], allowed_mentions: { parse: [] }, enforce_nonce: true },
      parts: [{ payload: { embeds: [embed], allowed_mentions: { parse: [] } } }],
      writtenAt: postedBefore,
    });
    expect(await store.deliveries.writeDown(CHANNEL_A, 'nonce-of-the-last-owner', [a1?.seq ?? 0], message)).toBe(true);
    await store.deliveries.accept(arrived(modcall('a2'), 30_000));
    await store.deliveries.accept(arrived(caseCreated('b1'), 20_000));

    const sent: Array<{ channelId: string; nonce: string }> = [];
    // Discord answers the resend with the post it made then (its id tells when), every other send with a new one.
    const send = async (channelId: string, body: FeedMessageBody) => {
      await new Promise((resolve) => setImmediate(resolve));
      sent.push({ channelId, nonce: body.nonce });
      return snowflakeAt(body.nonce === 'nonce-of-the-last-owner' ? postedBefore : Date.now());
    };
    await pacedWorker(store, send, new SendPacer(1, () => Date.now(), RUNTIME_TIMERS));
    await until(async () => (await openCount(store)) === 0);
    // The channel whose post had gone out before the failover is not sent behind the other for its next message:
    // the other channel's message is written down before it, but its entry arrived after this channel's.
    expect(sent.map((one) => one.channelId)).toEqual([CHANNEL_A, CHANNEL_A, CHANNEL_B]);
    expect(sent[0]?.nonce).toBe('nonce-of-the-last-owner');
  });
});
