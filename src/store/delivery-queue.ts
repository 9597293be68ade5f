import type { DeliveryIntake } from './delivery-intake.js';
import type { DeliveryMigration } from './delivery-migration.js';
import type { DeliveryRetention } from './delivery-retention.js';
import type { HeldEntries } from './held-entries.js';
import type { LaneQueue } from './lane-queue.js';

/**
 * The durable queue between the intake and the feed, ordered and deduplicated by the store (DESIGN.md, State).
 * A delivery is accepted once per (hook, delivery id) by a unique key that lasts from acceptance until at least
 * 24 h after it was posted; it is routed by the guild's settings in the same transaction; it then waits in its
 * channel's lane, is written down with a nonce before a send, and is marked posted when Discord confirmed it.
 * Nothing here is held in process memory.
 *
 * Each engine implements the whole; each caller asks for the role it plays (the intake, a feed lane, admins'
 * held entries, migrate-store, the retention sweep), and only the composition root holds all of them.
 */
export interface DeliveryQueue extends DeliveryIntake, LaneQueue, HeldEntries, DeliveryMigration, DeliveryRetention {}
