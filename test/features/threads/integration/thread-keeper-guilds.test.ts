import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { SendError } from '../../../../src/discord/posting/send-failure.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { ThreadDocuments } from '../../../../src/features/threads/thread-documents.js';
import { ThreadKeeper } from '../../../../src/features/threads/thread-keeper.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { failReadsOf } from '../../../helpers/failing-documents.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { recordingPoster } from '../../../helpers/recording-poster.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

/** A session card posted in the guild at `at`, whose thread is to be started. */
function card(guildId: string, at: number) {
  return {
    guildId,
    server: '4821337',
    sessionId: 1,
    name: 'Evening patrol',
    channelId: `sessions-${guildId}`,
    messageId: `card-${guildId}`,
    at,
  };
}

/** The session threads' keeper over a store, guild by guild: one whose document cannot be read backs off. */
describe('the session threads of many guilds', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;
  let keeper: ThreadKeeper | undefined;

  beforeEach(async () => {
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/bot.sqlite`, STORE_MODULES, Date.now);
  });

  afterEach(async () => {
    await keeper?.stop();
    keeper = undefined;
    await store.close();
    dir.remove();
  });

  it("starts a guild's thread while 101 guilds' documents cannot be read: those back off, and start once readable", async () => {
    const time = new ManualTime();
    // Another process's lanes post the session cards and follow their threads (its own records, as that process).
    const elsewhere = new ThreadDocuments(store.documents);
    const failing = Array.from({ length: 101 }, (_, i) => `4000000000000${String(i).padStart(5, '0')}`);
    for (const [i, guildId] of failing.entries()) {
      await elsewhere.setOn(guildId, true);
      await elsewhere.follow(card(guildId, time.now() - 60_000 + i));
    }
    let readable = false;
    const records = failReadsOf(store.documents, 'session_threads', (key) => !readable && failing.includes(key));
    const started: string[] = [];
    let backoffs = 0;
    keeper = new ThreadKeeper({
      threads: new ThreadDocuments(records),
      record: store.of(recordModule),
      poster: recordingPoster(),
      startThread: (_channelId, messageId) => {
        started.push(messageId);
        return Promise.resolve(messageId);
      },
      findPosted: () => Promise.resolve(undefined),
      clock: time.now,
      timers: time,
      logger: captureLogs().logger,
      minUpdateGapMs: 1_000,
      retryAfterMs: 20_000,
      checkEveryMs: 1_000,
      onBackoff: () => (backoffs += 1),
    });
    const running = keeper;
    const settle = async () => {
      // The store's reads resolve on the next turns; then the guilds' runs they started.
      await new Promise((resolve) => setImmediate(resolve));
      await running.idle();
    };
    await keeper.start();
    await time.advance(0, settle);
    expect(records.failures).toBe(101);

    // A session card of a healthy guild is posted later (by the other process): the due read finds it.
    await elsewhere.setOn('good', true);
    await elsewhere.follow(card('good', time.now()));
    await time.advance(2_000, settle);
    expect(started).toEqual(['card-good']);
    expect(backoffs).toBe(101);
    // Backing off (10 to 20 s): the failing guilds are not read again at each check meanwhile.
    await time.advance(3_000, settle);
    expect(records.failures).toBe(101);

    // Readable again: each starts its thread at its retry, and is no longer backing off.
    readable = true;
    await time.advance(20_000, settle);
    expect(started).toHaveLength(102);
    expect(await new ThreadDocuments(store.documents).followed(failing[0] ?? '')).toMatchObject({ retryAt: undefined });
  });

  it("starts a guild's other threads while Discord fails to start one of them, and that one at its retry", async () => {
    const time = new ManualTime();
    const threads = new ThreadDocuments(store.documents);
    await threads.setOn('g1', true);
    await threads.follow({ ...card('g1', time.now() - 1_000), sessionId: 1, messageId: 'card-1' });
    await threads.follow({ ...card('g1', time.now()), sessionId: 2, messageId: 'card-2' });
    let discordDown = true;
    const started: string[] = [];
    keeper = new ThreadKeeper({
      threads,
      record: store.of(recordModule),
      poster: recordingPoster(),
      startThread: (_channelId, messageId) => {
        if (discordDown && messageId === 'card-1') {
          return Promise.reject(new SendError({ kind: 'retry', reason: 'Discord 503: Service Unavailable' }));
        }
        started.push(messageId);
        return Promise.resolve(messageId);
      },
      findPosted: () => Promise.resolve(undefined),
      clock: time.now,
      timers: time,
      logger: captureLogs().logger,
      minUpdateGapMs: 1_000,
      retryAfterMs: 2_000,
      checkEveryMs: 60_000,
    });
    const running = keeper;
    const settle = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await running.idle();
    };
    await keeper.start();
    await time.advance(0, settle);
    // The first session's thread failed: the second's is started all the same.
    expect(started).toEqual(['card-2']);
    discordDown = false;
    await time.advance(2_000, settle);
    expect(started).toEqual(['card-2', 'card-1']);
  });
});
