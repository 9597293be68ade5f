import type pg from 'pg';

import type { DroppedHeld } from '../deliveries.js';
import type { DeliveryRetention } from '../delivery-retention.js';
import { countByGuild } from '../delivery-rows.js';
import { SWEEP_SLICE } from '../queue-statements.js';
import { changesOf, rowsOf, SQL } from './pg-sql.js';

/** The hourly sweep's part of the PostgreSQL queue: what is past its retention goes, a slice at a time. */
export class PostgresDeliveryRetention implements DeliveryRetention {
  constructor(private readonly pool: pg.Pool) {}

  async sweepPosted(before: number): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await changesOf(this.pool, SQL.sweepPosted, [before]);
      total += removed;
      if (removed < SWEEP_SLICE) return total;
    }
  }

  async dropHeld(before: number, limit: number): Promise<DroppedHeld[]> {
    return countByGuild(await rowsOf(this.pool, SQL.dropHeld, [before, limit]));
  }
}
