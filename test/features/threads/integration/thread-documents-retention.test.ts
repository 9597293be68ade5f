import { afterEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { FOLLOWED_AT_MOST_MS, ThreadDocuments } from '../../../../src/features/threads/thread-documents.js';
import { ThreadKeeper } from '../../../../src/features/threads/thread-keeper.js';
import type { Store } from '../../../../src/store/store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { ManualTime } from '../../../helpers/manual-time.js';
import { recordingPoster } from '../../../helpers/recording-poster.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const SESSION_NAME = 'Evening patrol of Mira';

/**
 * A session thread's document (its session's name, its card's and thread's messages) is kept while the thread is
 * followed: a session whose end never came is let go 48 h after its card, and the guild's document then names
 * nothing of it.
 */
describe.each(STORE_ENGINES)('session thread documents past their retention, on $name', ({ available, create }) => {
  let db: EngineDatabase | undefined;
  let store: Store | undefined;
  let keeper: ThreadKeeper | undefined;

  afterEach(async () => {
    await keeper?.stop();
    await store?.close();
    await db?.dispose();
  });

  it.skipIf(!available)('names nothing of the session once 48 h past its card', async () => {
    db = await create();
    const engine = db;
    const time = new ManualTime();
    store = await engine.open(time.now);
    const threads = new ThreadDocuments(store.documents);
    await threads.setOn(GUILD, true);
    await threads.follow({
      guildId: GUILD,
      server: '4821337',
      sessionId: 1,
      name: SESSION_NAME,
      channelId: 'sessions-1',
      messageId: 'card-1',
      at: time.now(),
    });
    keeper = new ThreadKeeper({
      threads,
      record: store.of(recordModule),
      poster: recordingPoster(),
      startThread: (_channelId, messageId) => Promise.resolve(messageId),
      findPosted: () => Promise.resolve(undefined),
      clock: time.now,
      timers: time,
      logger: captureLogs().logger,
      minUpdateGapMs: 1_000,
      retryAfterMs: 20_000,
      checkEveryMs: 60_000,
    });
    const running = keeper;
    const settle = async () => {
      await new Promise((resolve) => setImmediate(resolve));
      await running.idle();
    };
    const stored = async () =>
      JSON.stringify(await engine.query(`SELECT * FROM record WHERE kind = 'session_threads'`));
    await keeper.start();
    await time.advance(0, settle);
    expect(await stored()).toContain(SESSION_NAME);

    await time.advance(FOLLOWED_AT_MOST_MS - 120_000, settle);
    expect(await stored()).toContain(SESSION_NAME);

    await time.advance(180_000, settle);
    // The keeper's runs read and write the store over real I/O (PostgreSQL: a connection), so a run may end after
    // the manual clock moved: its next check is a minute later; a few more minutes let it come.
    for (let minutes = 0; minutes < 10 && (await stored()).includes(SESSION_NAME); minutes += 1) {
      await time.advance(60_000, settle);
    }
    expect(await stored()).not.toContain(SESSION_NAME);
    expect((await threads.followed(GUILD)).threads).toEqual([]);
  });
});
