import type pg from 'pg';

import {
  partitionOf,
  PARTITIONS,
  type CoordinationOptions,
  type FeedOwnership,
  type OwnershipListener,
} from '../coordination.js';
import type { Lease } from '../deliveries.js';
import { LeaseSession } from './lease-session.js';

/**
 * Advisory lock classes (the two-int form: class, object): the partitions and the gateway a feed process holds,
 * on its lease session (lease-session.ts), so they go when the session does.
 */
const PARTITION_CLASS = 0x42524450; // 'BRDP'
const GATEWAY_CLASS = 0x42524447; // 'BRDG'
/** A dead process's partitions wait at most this long for a new owner (plus one lock query each). */
const DEFAULT_REBALANCE_MS = 500;

/**
 * `rebalanceMs`: how often shares are rebalanced (and the session shows it is alive). `idleTimeoutMs`: how long
 * a silent session lives (idle_session_timeout): a hung process loses its partitions after this.
 */
export type LeaseOptions = CoordinationOptions;

/**
 * The feed processes' shares of the partitions, through session advisory locks on a connection of its own.
 * Every `rebalanceMs` a process counts the members (their member locks, in pg_locks), aims at an even share,
 * takes free partitions with pg_try_advisory_lock and gives back extra ones with pg_advisory_unlock, after its
 * lanes for them stopped. A killed process's partitions are free at once; a hung one's after idleTimeoutMs.
 */
export class PostgresLeases implements FeedOwnership {
  private readonly session: LeaseSession;
  private readonly held = new Set<number>();
  /** The epoch of each held partition, as this process made it when it took the partition. */
  private readonly epochs = new Map<number, number>();
  private gatewayHeld = false;
  private listener: OwnershipListener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private rebalancing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    config: pg.ClientConfig,
    private readonly options: LeaseOptions,
  ) {
    this.session = new LeaseSession(config, options.idleTimeoutMs ?? 10_000, options.logger);
  }

  owns(guildId: string): boolean {
    return this.leaseOf(guildId) !== undefined;
  }

  /**
   * The lease on the guild's partition, while this process holds it and its session answered recently enough
   * that the server cannot have ended it yet: a paused or cut-off process stops on its own before another
   * process may take the partition, and the store refuses its writes after that in any case (the epoch).
   */
  leaseOf(guildId: string): Lease | undefined {
    const partition = partitionOf(guildId);
    const epoch = this.epochs.get(partition);
    if (epoch === undefined || !this.held.has(partition) || !this.session.trusted()) return undefined;
    return { partition, epoch };
  }

  /** The partitions held now (tests, /status). */
  get partitions(): number[] {
    return [...this.held].sort((a, b) => a - b);
  }

  async start(listener: OwnershipListener): Promise<void> {
    this.listener = listener;
    await this.rebalance();
    this.timer = setInterval(() => {
      this.dropIfUnconfirmed();
      void this.rebalance();
    }, this.options.rebalanceMs ?? DEFAULT_REBALANCE_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.rebalancing;
    await this.loseAll();
    await this.session.close({ wait: true });
  }

  /**
   * A rebalance that has not been answered for longer than the leases are trusted (the server is unreachable,
   * the process was paused): the lanes stop now, before another process may take their partitions, and the
   * session is dropped, so the server frees whatever it still holds and the next rebalance starts afresh.
   */
  private dropIfUnconfirmed(): void {
    if (this.stopped || this.held.size === 0 || this.session.trusted()) return;
    this.options.logger.warn(
      { sinceMs: this.session.silentForMs(), partitions: this.held.size },
      'the feed lease session has not answered in time: its lanes stop and the session is dropped',
    );
    void this.loseAll();
    void this.session.close({ wait: false });
  }

  private rebalance(): Promise<void> {
    this.rebalancing ??= this.rebalanceOnce()
      .catch(async (error: unknown) => {
        this.options.logger.warn(
          { err: { message: error instanceof Error ? error.message : String(error) } },
          'the feed lease session failed; giving up its partitions and reconnecting',
        );
        await this.loseAll();
        await this.session.close({ wait: true });
      })
      .finally(() => {
        this.rebalancing = undefined;
      });
    return this.rebalancing;
  }

  private async rebalanceOnce(): Promise<void> {
    if (this.stopped) return;
    const client = await this.session.open();
    const members = await this.session.countMembers(client);
    this.options.onMembers?.(members);
    const target = Math.ceil(PARTITIONS / Math.max(1, members));

    if (this.held.size > target) {
      const extra = [...this.held].slice(target);
      // Not this process's any more from here on (owns() says so): no new lane starts for them while the old
      // ones finish; the locks go only after that, so no other process takes them meanwhile.
      for (const partition of extra) {
        this.held.delete(partition);
        this.epochs.delete(partition);
      }
      // Hand-overs are logged (rare, and what a failover's timeline is made of).
      this.options.logger.info({ partitions: extra, members }, 'giving back feed partitions');
      // The lanes stop and their sends finish before another process may take these partitions. Sends can take
      // longer than idle_session_timeout (a slow Discord, a long rate-limit queue): meanwhile the session shows
      // it is alive, or the server would end it and free every partition while those sends are in flight.
      const heartbeatMs = Math.min(
        this.options.rebalanceMs ?? DEFAULT_REBALANCE_MS,
        (this.options.idleTimeoutMs ?? 10_000) / 2,
      );
      const heartbeat = setInterval(
        () => void this.session.query(client, 'SELECT 1').catch(() => undefined),
        heartbeatMs,
      );
      try {
        await this.listener?.losing(extra);
      } finally {
        clearInterval(heartbeat);
      }
      for (const partition of extra) {
        await this.session.query(client, 'SELECT pg_advisory_unlock($1, $2)', [PARTITION_CLASS, partition]);
      }
      this.options.logger.info({ partitions: extra }, 'gave back feed partitions');
    } else if (this.held.size < target) {
      const locked: number[] = [];
      for (const partition of shuffled(PARTITIONS)) {
        if (this.held.size + locked.length >= target) break;
        if (this.held.has(partition)) continue;
        const { rows } = await this.session.query<{ locked: boolean }>(
          client,
          'SELECT pg_try_advisory_lock($1, $2) AS locked',
          [PARTITION_CLASS, partition],
        );
        if (rows[0]?.locked) locked.push(partition);
      }
      if (locked.length > 0) {
        // A new epoch for each, before any lane starts (see LeaseSession.nextEpochs).
        for (const { partition, epoch } of await this.session.nextEpochs(client, locked)) {
          this.epochs.set(partition, epoch);
          this.held.add(partition);
        }
        this.options.logger.info({ partitions: locked, members }, 'took feed partitions');
        this.listener?.gained(locked);
      }
    }

    if (this.options.wantsGateway && !this.gatewayHeld) {
      const { rows } = await this.session.query<{ locked: boolean }>(
        client,
        'SELECT pg_try_advisory_lock($1, 0) AS locked',
        [GATEWAY_CLASS],
      );
      if (rows[0]?.locked) {
        this.gatewayHeld = true;
        this.options.onGateway?.(true);
      }
    }
  }

  /** The session is gone (or stopping): every lease with it. The lanes stop first. */
  private async loseAll(): Promise<void> {
    if (this.held.size > 0) {
      const lost = [...this.held];
      this.held.clear();
      this.epochs.clear();
      await this.listener?.losing(lost).catch(() => undefined);
    }
    if (this.gatewayHeld) {
      this.gatewayHeld = false;
      this.options.onGateway?.(false);
    }
  }
}

/** 0..n-1 in random order: processes starting together reach for different partitions first. */
function shuffled(n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}
