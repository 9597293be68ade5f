import { afterEach, describe, expect, it } from 'vitest';

import { POSTS_KEPT_MS } from '../../../../src/features/digest/feature.js';
import { digestModule } from '../../../../src/features/digest/store/digest-module.js';
import type { Store } from '../../../../src/store/store.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const DAY_MS = 24 * 60 * 60 * 1000;

/** A week's digest take (`digest_post`: which week was posted, where) is kept 366 days after its week ended. */
describe.each(STORE_ENGINES)("the digest's takes past their retention, on $name", ({ available, create }) => {
  let db: EngineDatabase | undefined;
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
    await db?.dispose();
  });

  it.skipIf(!available)('are gone at the sweep once 366 days past their week, a younger one kept', async () => {
    db = await create();
    const t0 = Date.UTC(2026, 0, 5, 18);
    let now = t0;
    store = await db.open(() => now);
    const digests = store.of(digestModule);
    for (const periodEnd of [t0, t0 + 7 * DAY_MS]) {
      expect((await digests.takePost(GUILD, periodEnd, '333', periodEnd, periodEnd - DAY_MS)).kind).toBe('taken');
      await digests.markPosted(GUILD, periodEnd, `msg-${periodEnd}`, periodEnd);
    }
    // What the digest feature's hourly sweep does, with the clock 366 days and a millisecond past the first week.
    now = t0 + POSTS_KEPT_MS;
    await digests.sweepPosts(now - POSTS_KEPT_MS);
    expect(await db.query(`SELECT period_end FROM digest_post`)).toHaveLength(2);
    now = t0 + POSTS_KEPT_MS + 1;
    await digests.sweepPosts(now - POSTS_KEPT_MS);
    const left = await db.query<{ period_end: number | string }>(`SELECT period_end FROM digest_post`);
    expect(left.map((row) => Number(row.period_end))).toEqual([t0 + 7 * DAY_MS]);
  });
});
