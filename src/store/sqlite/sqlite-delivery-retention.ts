import type { Database } from 'better-sqlite3';

import type { DroppedHeld } from '../deliveries.js';
import type { DeliveryRetention } from '../delivery-retention.js';
import { countByGuild } from '../delivery-rows.js';
import { SWEEP_SLICE } from '../queue-statements.js';
import { sweepInSlices } from '../sweep-in-slices.js';
import { prepare, SQL } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** The hourly sweep's part of the SQLite queue: a slice per write, so the single writer is never held long. */
export class SqliteDeliveryRetention implements DeliveryRetention {
  private readonly statements;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.statements = {
      sweepPosted: prepare(db, SQL.sweepPosted),
      sweepBodies: prepare(db, SQL.sweepBodies),
      dropHeld: prepare(db, SQL.dropHeld),
    };
  }

  /** A slice of SWEEP_SLICE at a time (the statement's own limit), the event loop running between slices. */
  sweepPosted(before: number): Promise<number> {
    return sweepInSlices(() => this.writes.run(() => this.statements.sweepPosted.run(before).changes), SWEEP_SLICE);
  }

  sweepBodies(before: number): Promise<number> {
    return sweepInSlices(() => this.writes.run(() => this.statements.sweepBodies.run(before).changes), SWEEP_SLICE);
  }

  dropHeld(before: number, limit: number): Promise<DroppedHeld[]> {
    return this.writes.run(() => countByGuild(this.statements.dropHeld.all(before, limit)));
  }
}
