import type pg from 'pg';

import { BoundedCache } from '../bounded-cache.js';
import { rowsOf, SQL } from './pg-sql.js';

/** Channels whose broken state the intake has had to read; a change anywhere is caught by bridge_accept_placed. */
const CACHED_CHANNELS = 10_000;

/**
 * Which channels are marked broken, as the intake places deliveries by it, without a round trip of its own: most
 * channels are never broken, so one the cache does not know is taken as working. The guess is checked, as the
 * settings version is, by bridge_accept_placed under the guild's lock: a wrong one (a channel broken or repaired
 * by any process since) is answered 'stale', and the accept asks again with `fresh`, which reads the store and
 * remembers the answer.
 */
export class PgBrokenChannels {
  private readonly cache = new BoundedCache<{ reason: string | undefined }>(CACHED_CHANNELS);

  constructor(private readonly pool: pg.Pool) {}

  /** What Discord said of the channel while it is marked broken; undefined while it is not (or not known to be). */
  async reasonOf(channelId: string, fresh: boolean): Promise<string | undefined> {
    if (!fresh) return this.cache.get(channelId)?.reason;
    const reason = (await rowsOf(this.pool, SQL.brokenReason, [channelId]))[0]?.reason;
    this.cache.set(channelId, { reason });
    return reason;
  }
}
