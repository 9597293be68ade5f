import type pg from 'pg';

import { composeQueue } from '../compose-queue.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import { PostgresDeliveryIntake } from './pg-delivery-intake.js';
import { PostgresDeliveryMigration } from './pg-delivery-migration.js';
import { PostgresDeliveryRetention } from './pg-delivery-retention.js';
import type { PostgresGuildSettings } from './pg-guild-settings.js';
import { PostgresHeldEntries } from './pg-held-entries.js';
import { PostgresLaneQueue } from './pg-lane-queue.js';

/** The delivery queue in PostgreSQL: each role in a file of its own, over one pool. */
export function createPostgresDeliveries(pool: pg.Pool, guilds: PostgresGuildSettings): DeliveryQueue {
  return composeQueue({
    intake: new PostgresDeliveryIntake(pool, guilds),
    lanes: new PostgresLaneQueue(pool),
    held: new PostgresHeldEntries(pool),
    migration: new PostgresDeliveryMigration(pool),
    retention: new PostgresDeliveryRetention(pool),
  });
}
