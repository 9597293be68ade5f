import type { Logger } from '../base/logger.js';
import type { Lease } from './deliveries.js';

/**
 * How feed processes share the work, as the store's engine allows: which guilds' feeds this process posts, and
 * whether it holds the gateway (the one Discord connection that receives slash commands, so each runs once).
 * With one process (SQLite: its file lock admits one) it posts them all and holds the gateway. With several
 * (PostgreSQL) guilds are hashed into a fixed number of partitions and each partition is owned by one process at
 * a time, through a lease the engine enforces (src/store/postgres/pg-leases.ts); one of them holds the gateway.
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
  /**
   * Whether this process holds the gateway shard now, its lease confirmed recently enough that no other process
   * may have it yet: an interaction is answered only then. Undefined: the store spreads no shards (one process).
   */
  readonly holdsShard?: ((shard: number) => boolean) | undefined;
  /**
   * Takes the identify turn of this bucket (`shard % max_concurrency`) if it is free: 0 when taken, else how long
   * until it may be, when to ask again. Discord paces identifies for the whole bot, so the processes take turns
   * through the store. Absent: one process.
   */
  identifyTurn?(bucket: number, spacingMs: number): Promise<number>;
  start(listener: OwnershipListener): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The gateway shards this process opens, where the store spreads them over the feed processes (PostgreSQL): told
 * which are its own now, as partitions are. The guilds of a shard send it their slash commands and events.
 */
export interface ShardListener {
  /** Discord's recommended shard count now: a process that starts alone makes it the deployment's. */
  recommended(): Promise<number>;
  /** These shards are this process's now (of `count`): they connect. */
  gained(shards: readonly number[], count: number): void;
  /** These shards are about to go to another process: their connections close before it may take them. */
  losing(shards: readonly number[]): Promise<void>;
}

/** What a process tells the store's coordination about itself, and what it wants to hear. */
export interface CoordinationOptions {
  logger: Logger;
  /** How often shares are rebalanced, where there are several processes (tests shorten it). Default 0.5 s. */
  rebalanceMs?: number;
  /** How long a silent process keeps its share, where there are several. Default 10 s. */
  idleTimeoutMs?: number;
  /**
   * How long partitions taken over from a process that left are kept before any may be given back to a process
   * that joined, where there are several (tests shorten it). Default 10 s.
   */
  keepTakenMs?: number;
  /**
   * Whether this process may hold the gateway lease: where shards are spread (`shards`), the lease of the jobs
   * that run once per deployment; otherwise those jobs and the whole gateway connection.
   */
  wantsGateway: boolean;
  /** Told when this process gains or loses the gateway lease. */
  onGateway?(held: boolean): void;
  /**
   * Where the store spreads the gateway's shards over the processes (PostgreSQL), told this process's share; a
   * store with one process (SQLite) never calls it, and the gateway lease's holder opens every shard.
   */
  shards?: ShardListener;
  /**
   * Told the share of the partitions this process holds, 0 to 1, whenever it changes: Discord's global rate limit
   * is split by it (shares never add up to more than 1: a partition given back is counted out before it is free).
   */
  onShare?(share: number): void;
}

/**
 * One process posts everything and holds the gateway (the SQLite store: the file lock already makes it the only
 * one): told so as soon as the feed starts.
 */
export function ownEverything(options: Partial<CoordinationOptions> = {}): FeedOwnership {
  return {
    owns: () => true,
    // Epoch 0: a partition no process ever leased (the store checks nothing for SQLite).
    leaseOf: (guildId) => ({ partition: partitionOf(guildId), epoch: 0 }),
    start(listener) {
      listener.gained(Array.from({ length: PARTITIONS }, (_, partition) => partition));
      options.onShare?.(1);
      if (options.wantsGateway) options.onGateway?.(true);
      return Promise.resolve();
    },
    stop() {
      if (options.wantsGateway) options.onGateway?.(false);
      return Promise.resolve();
    },
  };
}
