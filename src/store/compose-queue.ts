import type { DeliveryIntake } from './delivery-intake.js';
import type { DeliveryMigration } from './delivery-migration.js';
import type { DeliveryQueue } from './delivery-queue.js';
import type { DeliveryRetention } from './delivery-retention.js';
import type { HeldEntries } from './held-entries.js';
import type { LaneQueue } from './lane-queue.js';

/** An engine's implementations of the queue's roles, one each. */
export interface QueueRoles {
  intake: DeliveryIntake;
  lanes: LaneQueue;
  held: HeldEntries;
  migration: DeliveryMigration;
  retention: DeliveryRetention;
}

/** The whole queue (what the composition root holds) from an engine's roles, each method its role's own. */
export function composeQueue({ intake, lanes, held, migration, retention }: QueueRoles): DeliveryQueue {
  return {
    accept: (delivery, options) => intake.accept(delivery, options),
    stateOf: (hookId, deliveryId) => intake.stateOf(hookId, deliveryId),
    countOpen: () => intake.countOpen(),
    countByState: () => intake.countByState(),
    oldestWaitingAt: () => intake.oldestWaitingAt(),
    channelsWithWork: () => lanes.channelsWithWork(),
    nextFor: (channelId, max) => lanes.nextFor(channelId, max),
    writeDown: (channelId, nonce, seqs, message, lease) => lanes.writeDown(channelId, nonce, seqs, message, lease),
    writtenMessage: (channelId, nonce) => lanes.writtenMessage(channelId, nonce),
    ack: (channelId, nonce, postedAt, lease) => lanes.ack(channelId, nonce, postedAt, lease),
    release: (channelId, nonce, lease) => lanes.release(channelId, nonce, lease),
    noteFailure: (channelId, guildId, retryAt) => lanes.noteFailure(channelId, guildId, retryAt),
    holdRefused: (seqs, detail, at, lease) => lanes.holdRefused(seqs, detail, at, lease),
    holdBrokenChannel: (channel, lease) => lanes.holdBrokenChannel(channel, lease),
    retryAtOf: (channelId) => lanes.retryAtOf(channelId),
    statusOf: (guildId) => held.statusOf(guildId),
    listHeld: (guildId, page) => held.listHeld(guildId, page),
    heldOne: (guildId, seq) => held.heldOne(guildId, seq),
    requeueHeld: (guildId, seq, channelId, at) => held.requeueHeld(guildId, seq, channelId, at),
    discardHeld: (guildId, seq, at) => held.discardHeld(guildId, seq, at),
    listPosted: (page) => migration.listPosted(page),
    rememberPosted: (deliveries) => migration.rememberPosted(deliveries),
    listOpen: () => migration.listOpen(),
    sweepPosted: (before) => retention.sweepPosted(before),
    sweepBodies: (before) => retention.sweepBodies(before),
    dropHeld: (before, limit) => retention.dropHeld(before, limit),
  };
}
