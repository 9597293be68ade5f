import type { Database } from 'better-sqlite3';

import { composeQueue } from '../compose-queue.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { SqliteDeliveryIntake } from './sqlite-delivery-intake.js';
import { SqliteDeliveryMigration } from './sqlite-delivery-migration.js';
import { SqliteDeliveryRetention } from './sqlite-delivery-retention.js';
import { SqliteHeldEntries } from './sqlite-held-entries.js';
import { SqliteLaneQueue } from './sqlite-lane-queue.js';
import type { WriteBatcher } from './write-batcher.js';

/** The delivery queue in SQLite's `delivery` and `channel_state` tables: each role in a file of its own. */
export function createSqliteDeliveries(db: Database, writes: WriteBatcher): DeliveryQueue {
  return composeQueue({
    intake: new SqliteDeliveryIntake(db, writes),
    lanes: new SqliteLaneQueue(db, writes),
    held: new SqliteHeldEntries(db, writes),
    migration: new SqliteDeliveryMigration(db, writes),
    retention: new SqliteDeliveryRetention(db, writes),
  });
}
