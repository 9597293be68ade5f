import type { Lease } from '../store/deliveries.js';

/**
 * Which guilds' feeds this process posts. With one process (SQLite) it posts them all. With several (PostgreSQL)
 * guilds are hashed into a fixed number of partitions and each partition is owned by one process at a time,
 * through a lease the store's engine enforces (src/store/postgres/pg-leases.ts).
 */
export const PARTITIONS = 64;

/** The partition of a guild: FNV-1a of its id, so every process computes the same one. */
export function partitionOf(guildId: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < guildId.length; i += 1) {
    hash ^= guildId.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash % PARTITIONS;
}

/** What the feed is told when its share of the partitions changes. */
export interface OwnershipListener {
  /** These partitions are this process's now: their lanes may start (a message written down goes first). */
  gained(partitions: readonly number[]): void;
  /** These partitions are about to go to another process: stop their lanes and let their sends finish. */
  losing(partitions: readonly number[]): Promise<void>;
}

export interface FeedOwnership {
  /** Whether this process posts the guild's feed now. */
  owns(guildId: string): boolean;
  /** The lease under which this process posts the guild's feed now (handed to the store's writes), if it does. */
  leaseOf(guildId: string): Lease | undefined;
  start(listener: OwnershipListener): Promise<void>;
  stop(): Promise<void>;
}

/** One process posts everything (the SQLite store: the file lock already makes it the only one). */
export function ownEverything(): FeedOwnership {
  return {
    owns: () => true,
    // Epoch 0: a partition no process ever leased (the store checks nothing for SQLite).
    leaseOf: (guildId) => ({ partition: partitionOf(guildId), epoch: 0 }),
    start(listener) {
      listener.gained(Array.from({ length: PARTITIONS }, (_, partition) => partition));
      return Promise.resolve();
    },
    stop: () => Promise.resolve(),
  };
}
