import type pg from 'pg';

import type { DroppedHeld } from '../deliveries.js';
import type { DeliveryRetention } from '../delivery-retention.js';
import { countByGuild } from '../delivery-rows.js';
import { SWEEP_SLICE } from '../queue-statements.js';
import { sweepInSlices } from '../sweep-in-slices.js';
import { changesOf, rowsOf, SQL } from './pg-sql.js';

/** The hourly sweep's part of the PostgreSQL queue: what is past its retention goes, a slice at a time. */
export class PostgresDeliveryRetention implements DeliveryRetention {
  constructor(private readonly pool: pg.Pool) {}

  /** A slice of SWEEP_SLICE at a time (the statement's own limit), the event loop running between slices. */
  sweepPosted(before: number): Promise<number> {
    return sweepInSlices(() => changesOf(this.pool, SQL.sweepPosted, [before]), SWEEP_SLICE);
  }

  sweepBodies(before: number): Promise<number> {
    return sweepInSlices(() => changesOf(this.pool, SQL.sweepBodies, [before]), SWEEP_SLICE);
  }

  async dropHeld(before: number, limit: number): Promise<DroppedHeld[]> {
    return countByGuild(await rowsOf(this.pool, SQL.dropHeld, [before, limit]));
  }
}
