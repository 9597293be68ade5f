import type pg from 'pg';

import type { HeldEntry, PostedDelivery, QueuedEntry } from '../deliveries.js';
import type { DeliveryMigration } from '../delivery-migration.js';
import { toOpenEntry, toPosted } from '../delivery-rows.js';
import { rowsOf, SQL } from './pg-sql.js';

/** What migrate-store reads out of a PostgreSQL store and writes into one. */
export class PostgresDeliveryMigration implements DeliveryMigration {
  constructor(private readonly pool: pg.Pool) {}

  async listPosted(page: { afterSeq: number; limit: number }): Promise<Array<PostedDelivery & { seq: number }>> {
    return (await rowsOf(this.pool, SQL.listPosted, [page.afterSeq, page.limit])).map(toPosted);
  }

  async rememberPosted(deliveries: readonly PostedDelivery[]): Promise<number> {
    // One statement for the whole page: the rows travel as one JSON array.
    const { rowCount } = await this.pool.query(
      `INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, server, case_type, received_at, state,
                             posted_at, muted)
       SELECT nextval('delivery_seq'), d."hookId", d."deliveryId", d."guildId", d.event, d.server, d."caseType",
              d."receivedAt", 'posted', d."postedAt", d.muted
       FROM jsonb_to_recordset($1::jsonb) AS d("hookId" TEXT, "deliveryId" TEXT, "guildId" TEXT, event TEXT,
              server TEXT, "caseType" TEXT, "receivedAt" BIGINT, "postedAt" BIGINT, muted BOOLEAN)
       ON CONFLICT (hook_id, delivery_id) DO NOTHING`,
      [JSON.stringify(deliveries)],
    );
    return rowCount ?? 0;
  }

  async listOpen(): Promise<Array<QueuedEntry | HeldEntry>> {
    return (await rowsOf(this.pool, SQL.listOpen, [])).map(toOpenEntry);
  }
}
