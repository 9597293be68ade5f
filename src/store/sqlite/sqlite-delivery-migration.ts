import type { Database, Statement } from 'better-sqlite3';

import type { HeldEntry, PostedDelivery, QueuedEntry } from '../deliveries.js';
import type { DeliveryMigration } from '../delivery-migration.js';
import { toOpenEntry, toPosted } from '../delivery-rows.js';
import { prepare, SQL } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** What migrate-store reads out of a SQLite store and writes into one. */
export class SqliteDeliveryMigration implements DeliveryMigration {
  private readonly statements;
  private readonly remember: Statement<unknown[]>;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.statements = { listPosted: prepare(db, SQL.listPosted), listOpen: prepare(db, SQL.listOpen) };
    // One row at a time inside one write: SQLite has no JSON record set to insert a page from in one statement.
    this.remember = db.prepare(`
      INSERT INTO delivery (hook_id, delivery_id, guild_id, event, server, case_type, received_at, state, posted_at,
                            muted)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'posted', ?, ?)
      ON CONFLICT (hook_id, delivery_id) DO NOTHING`);
  }

  listPosted(page: { afterSeq: number; limit: number }): Promise<Array<PostedDelivery & { seq: number }>> {
    return Promise.resolve(this.statements.listPosted.all(page.afterSeq, page.limit).map(toPosted));
  }

  rememberPosted(deliveries: readonly PostedDelivery[]): Promise<number> {
    return this.writes.run(() => {
      let added = 0;
      for (const d of deliveries) {
        added += this.remember.run(
          d.hookId,
          d.deliveryId,
          d.guildId,
          d.event,
          d.server ?? null,
          d.caseType ?? null,
          d.receivedAt,
          d.postedAt,
          d.muted ? 1 : 0,
        ).changes;
      }
      return added;
    });
  }

  listOpen(): Promise<Array<QueuedEntry | HeldEntry>> {
    return Promise.resolve(this.statements.listOpen.all().map(toOpenEntry));
  }
}
