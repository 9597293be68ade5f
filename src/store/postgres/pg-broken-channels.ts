import type pg from 'pg';

import { BoundedCache } from '../bounded-cache.js';
import { rowsOf, SQL } from './pg-sql.js';

/** Channels whose broken state the intake keeps; a change anywhere is caught by bridge_accept_placed's check. */
const CACHED_CHANNELS = 10_000;

/**
 * Which channels are marked broken, as the intake places deliveries by it: from a bounded cache, so an accept
 * costs no extra round trip. A copy may be out of date (another process parked or cleared the channel):
 * bridge_accept_placed compares it with the stored state under the guild's lock and answers 'stale', and the
 * accept reads it again with `fresh`.
 */
export class PgBrokenChannels {
  private readonly cache = new BoundedCache<{ reason: string | undefined }>(CACHED_CHANNELS);

  constructor(private readonly pool: pg.Pool) {}

  /** What Discord said of the channel while it is marked broken; undefined while it is not. */
  async reasonOf(channelId: string, fresh: boolean): Promise<string | undefined> {
    const cached = fresh ? undefined : this.cache.get(channelId);
    if (cached) return cached.reason;
    const reason = (await rowsOf(this.pool, SQL.brokenReason, [channelId]))[0]?.reason;
    this.cache.set(channelId, { reason });
    return reason;
  }
}
