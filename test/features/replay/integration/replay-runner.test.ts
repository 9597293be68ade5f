import { afterEach, describe, expect, it } from 'vitest';

import { createLogger } from '../../../../src/base/logger.js';
import { RUNTIME_TIMERS } from '../../../../src/base/timers.js';
import type { OutgoingMessage, Poster } from '../../../../src/discord/posting/poster.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { ReplayDesk } from '../../../../src/features/replay/replay-desk.js';
import { ReplayRunner } from '../../../../src/features/replay/replay-runner.js';
import { replayModule } from '../../../../src/features/replay/store/replay-module.js';
import type { NewDelivery } from '../../../../src/store/deliveries.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { createTestDatabase, POSTGRES_URL } from '../../../helpers/postgres-database.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

/**
 * The replay's runner and the replay window on both engines, over a real store and a Discord that recognises a
 * nonce as the real one does (enforce_nonce: the same nonce answers with the message already posted).
 */
const GUILD = '222222222222222222';
const LIVE = '300000000000000001';
const REPLAYED = '300000000000000002';
const HOUR = 60 * 60 * 1000;
const logger = createLogger('silent');

/** A channel's messages as Discord keeps them, one per nonce. */
class NonceDiscord {
  readonly messages: Array<{ channelId: string; body: OutgoingMessage; nonce: string }> = [];
  sends = 0;

  post(channelId: string, body: OutgoingMessage, nonce: string): string {
    this.sends += 1;
    const index = this.messages.findIndex((message) => message.nonce === nonce && message.channelId === channelId);
    if (index !== -1) return String(index);
    this.messages.push({ channelId, body, nonce });
    return String(this.messages.length - 1);
  }

  /** The delivery ids the channel's embeds show (their footers end with `Delivery <id>`), in order. */
  shown(channelId: string): string[] {
    return this.messages
      .filter((message) => message.channelId === channelId)
      .flatMap((message) =>
        message.body.embeds.map((embed) => /Delivery (\S+)$/.exec(embed.footer?.text ?? '')?.[1] ?? '?'),
      );
  }
}

function caseDelivery(n: number, receivedAt: number): NewDelivery {
  const sample = SAMPLE_DELIVERIES['case.created'];
  const envelope = { ...sample, id: `case-${n}`, data: { case: { ...sample.data.case, number: n } } };
  return {
    hookId: 'hook-1',
    guildId: GUILD,
    deliveryId: envelope.id,
    event: 'case.created',
    receivedAt,
    rawBody: JSON.stringify(envelope),
  };
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A store URL of the engine, the same database each time it is opened in the test. */
async function storeUrlOf(engine: 'sqlite' | 'postgres'): Promise<string> {
  if (engine === 'postgres') {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    return database.url;
  }
  const dir = makeTempDir();
  cleanups.push(() => dir.remove());
  return `sqlite://${dir.path}/bot.sqlite`;
}

async function open(url: string, clock: () => number): Promise<Store> {
  const store = await openStore(url, STORE_MODULES, clock);
  // A test may close it first (a process that died): closing it again is no failure of the test.
  cleanups.push(() => store.close().catch(() => undefined));
  return store;
}

/** Accepts the deliveries routed to LIVE and posts them there, as the feed does. */
async function postLive(store: Store, deliveries: readonly NewDelivery[], at: number): Promise<void> {
  await store.guilds.update(GUILD, (settings) => ({ ...settings, defaultChannelId: LIVE }));
  for (const delivery of deliveries) expect(await store.deliveries.accept(delivery)).toBe('accepted');
  for (;;) {
    const entries = await store.deliveries.nextFor(LIVE, 10);
    if (entries.length === 0) return;
    const nonce = `live-${entries[0]?.seq ?? 0}`;
    expect(
      await store.deliveries.writeDown(
        LIVE,
        nonce,
        entries.map((entry) => entry.seq),
      ),
    ).toBe(true);
    await store.deliveries.ack(LIVE, nonce, at);
  }
}

function runnerOn(store: Store, poster: Pick<Poster, 'post'>, clock: () => number): ReplayRunner {
  return new ReplayRunner({
    store: store.of(replayModule),
    guilds: store.guilds,
    poster,
    clock,
    timers: RUNTIME_TIMERS,
    logger,
    backoff: { baseMs: 5, capMs: 20 },
  });
}

const ENGINES = [
  { engine: 'sqlite' as const, skip: false },
  { engine: 'postgres' as const, skip: !POSTGRES_URL },
];

describe.each(ENGINES)('replay on $engine', ({ engine, skip }) => {
  it.skipIf(skip)(
    'killed after Discord took a message and before it was confirmed: posts each event once, in order, after the restart',
    async () => {
      const url = await storeUrlOf(engine);
      const now = { ms: Date.UTC(2026, 10, 28, 12) };
      const clock = () => now.ms;
      const first = await open(url, clock);
      const ids = Array.from({ length: 35 }, (_, n) => `case-${n + 1}`);
      await postLive(
        first,
        ids.map((_, n) => caseDelivery(n + 1, now.ms - 2 * HOUR + n)),
        now.ms - HOUR,
      );
      // The route moves: what went to LIVE now goes to REPLAYED.
      await first.guilds.update(GUILD, (settings) => ({ ...settings, defaultChannelId: REPLAYED }));

      const discord = new NonceDiscord();
      let killed = false;
      const killedAfterSecond = new Promise<void>((resolve) => {
        const crashing: Pick<Poster, 'post'> = {
          post: (channelId, body, nonce) => {
            discord.post(channelId, body, nonce);
            if (discord.messages.length < 2) return Promise.resolve(String(discord.messages.length - 1));
            // Discord took the second message; the process dies before it hears so (its answer never comes).
            killed = true;
            resolve();
            return new Promise<string>(() => undefined);
          },
        };
        const runner = runnerOn(first, crashing, clock);
        runner.start();
        const desk = new ReplayDesk({ store: first.of(replayModule), runner, clock }, 24);
        void desk.start({ guildId: GUILD, channelId: REPLAYED, hours: 3, startedBy: 'admin-1' });
      });
      await killedAfterSecond;
      expect(killed).toBe(true);
      expect(discord.shown(REPLAYED)).toHaveLength(20);

      // The killed process's store goes with it (SQLite's lock too).
      await first.close();
      // A new process on the same store: it sends the written-down message again (Discord answers with the one it
      // has), then the rest.
      const second = await open(url, clock);
      const runner = runnerOn(second, { post: (c, b, n) => Promise.resolve(discord.post(c, b, n)) }, clock);
      runner.start();
      await runner.idle();
      await runner.stop();

      expect(discord.shown(REPLAYED)).toEqual(ids);
      // The message the kill left unconfirmed was sent again once, and Discord answered with the one it had.
      expect(discord.sends).toBe(discord.messages.length + 1);
      expect(
        discord.messages.every((message) =>
          message.body.embeds.every((embed) => embed.footer?.text.startsWith('Replayed · ')),
        ),
      ).toBe(true);
      expect(
        discord.messages.every((message) => JSON.stringify(message.body.allowed_mentions) === '{"parse":[]}'),
      ).toBe(true);
      const [run] = await second.of(replayModule).listRunning();
      expect(run).toBeUndefined();
    },
    60_000,
  );

  it.skipIf(skip)(
    'keeps a posted or muted delivery’s body for the replay window, then drops it and replays nothing of it',
    async () => {
      const url = await storeUrlOf(engine);
      const now = { ms: Date.UTC(2026, 10, 28, 12) };
      const clock = () => now.ms;
      const store = await open(url, clock);
      await postLive(store, [caseDelivery(1, now.ms - 3 * HOUR)], now.ms - 3 * HOUR);
      // case.created is off for a while: one more comes, muted (stored as posted, never sent).
      await store.guilds.update(GUILD, (settings) => ({ ...settings, routes: { 'case.created': null } }));
      expect(await store.deliveries.accept(caseDelivery(2, now.ms - HOUR))).toBe('accepted');
      await store.guilds.update(GUILD, (settings) => ({ ...settings, routes: {}, defaultChannelId: REPLAYED }));
      // The community record's writer read both: it no longer drops a posted delivery's body.
      expect((await store.of(recordModule).recordPending(10)).recorded).toBe(2);

      const replays = store.of(replayModule);
      const run = async () => {
        const { run: started } = await replays.start({
          runId: `run-${now.ms}`,
          guildId: GUILD,
          channelId: REPLAYED,
          sinceAt: now.ms - 24 * HOUR,
          upToSeq: await replays.latestSeq(),
          startedBy: 'admin-1',
          startedAt: now.ms,
        });
        const sources = await replays.sources(started, 10);
        await replays.end(started.runId, now.ms, null);
        return sources.map((source) => [source.deliveryId, source.muted, source.rawBody.length > 0]);
      };
      expect(await run()).toEqual([
        ['case-1', false, true],
        ['case-2', true, true],
      ]);

      // The hourly sweep with a 2 h window: the first was posted 3 h ago, the muted one 1 h ago.
      expect(await store.deliveries.sweepBodies(now.ms - 2 * HOUR)).toBe(1);
      now.ms += 1;
      expect(await run()).toEqual([['case-2', true, true]]);
    },
    60_000,
  );
  it.skipIf(skip)(
    'forgets what a replay posted once it is past the window, and an ended run a week after it ended',
    async () => {
      const url = await storeUrlOf(engine);
      const now = { ms: Date.UTC(2026, 10, 28, 12) };
      const clock = () => now.ms;
      const store = await open(url, clock);
      await postLive(store, [caseDelivery(1, now.ms - 3 * HOUR), caseDelivery(2, now.ms - HOUR)], now.ms - HOUR);
      await store.guilds.update(GUILD, (settings) => ({ ...settings, defaultChannelId: REPLAYED }));
      const discord = new NonceDiscord();
      const runner = runnerOn(store, { post: (c, b, n) => Promise.resolve(discord.post(c, b, n)) }, clock);
      runner.start();
      const desk = new ReplayDesk({ store: store.of(replayModule), runner, clock }, 24);
      const { run } = await desk.start({ guildId: GUILD, channelId: REPLAYED, hours: 4, startedBy: 'admin-1' });
      await runner.idle();
      await runner.stop();
      expect(discord.shown(REPLAYED)).toEqual(['case-1', 'case-2']);

      const replays = store.of(replayModule);
      // The hourly sweep with a 2 h window: case-1 came 3 h ago and can no longer be replayed; case-2 can.
      await replays.sweep(now.ms - 2 * HOUR, now.ms - 7 * 24 * HOUR);
      expect((await replays.listAll()).posts.map((post) => post.deliveryId)).toEqual(['case-2']);
      expect((await replays.runOf(run.runId))?.posted).toBe(2);
      // A week and an hour later: the run is gone too.
      now.ms += 7 * 24 * HOUR + HOUR;
      await replays.sweep(now.ms - 2 * HOUR, now.ms - 7 * 24 * HOUR);
      expect(await replays.listAll()).toEqual({ runs: [], posts: [] });
    },
    60_000,
  );
});
