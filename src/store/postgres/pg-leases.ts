import { performance } from 'node:perf_hooks';
import pg from 'pg';

import {
  partitionOf,
  PARTITIONS,
  type CoordinationOptions,
  type FeedOwnership,
  type OwnershipListener,
} from '../coordination.js';
import type { Lease } from '../deliveries.js';

/**
 * Advisory lock classes (the two-int form: class, object): what a feed process holds. Session-level locks: the
 * server releases them the moment the session ends, however the process died; `idle_session_timeout` ends the
 * session of a process that hangs (it stops running its rebalance query) so its locks go too.
 */
const PARTITION_CLASS = 0x42524450; // 'BRDP'
const MEMBER_CLASS = 0x4252444d; // 'BRDM'
const GATEWAY_CLASS = 0x42524447; // 'BRDG'
/** A dead process's partitions wait at most this long for a new owner (plus one lock query each). */
const DEFAULT_REBALANCE_MS = 500;
/** Member slots: more than any deployment runs feed processes. */
const MEMBER_SLOTS = 256;
/**
 * The share of the idle-session timeout this process trusts its leases for after the session last answered.
 * The server ends a silent session no sooner than the timeout after its last statement, and another process
 * takes the partitions only after that: stopping at 80 % leaves the rest as a margin for the lanes to stop.
 */
const LEASE_TRUST = 0.8;

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
  private client: pg.Client | undefined;
  private readonly held = new Set<number>();
  /** The epoch of each held partition, as this process made it when it took the partition. */
  private readonly epochs = new Map<number, number>();
  /** When the statement the session last answered was sent (performance.now()): the leases hold until then. */
  private aliveAt: number | undefined;
  private gatewayHeld = false;
  private listener: OwnershipListener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private rebalancing: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly options: LeaseOptions,
  ) {}

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
    if (epoch === undefined || !this.held.has(partition) || !this.trusted()) return undefined;
    return { partition, epoch };
  }

  private trusted(): boolean {
    return this.aliveAt !== undefined && performance.now() - this.aliveAt < this.idleTimeoutMs * LEASE_TRUST;
  }

  private get idleTimeoutMs(): number {
    return this.options.idleTimeoutMs ?? 10_000;
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
    await this.client?.end().catch(() => undefined);
    this.client = undefined;
  }

  /**
   * A rebalance that has not been answered for longer than the leases are trusted (the server is unreachable,
   * the process was paused): the lanes stop now, before another process may take their partitions, and the
   * session is dropped, so the server frees whatever it still holds and the next rebalance starts afresh.
   */
  private dropIfUnconfirmed(): void {
    if (this.stopped || this.held.size === 0 || this.trusted()) return;
    this.options.logger.warn(
      { sinceMs: Math.round(performance.now() - (this.aliveAt ?? 0)), partitions: this.held.size },
      'the feed lease session has not answered in time: its lanes stop and the session is dropped',
    );
    void this.loseAll();
    const client = this.client;
    this.client = undefined;
    // Not awaited: a connection that gets no answers may take long to close, and nothing waits for it.
    void client?.end().catch(() => undefined);
  }

  private rebalance(): Promise<void> {
    this.rebalancing ??= this.rebalanceOnce()
      .catch(async (error: unknown) => {
        this.options.logger.warn(
          { err: { message: error instanceof Error ? error.message : String(error) } },
          'the feed lease session failed; giving up its partitions and reconnecting',
        );
        await this.loseAll();
        const client = this.client;
        this.client = undefined;
        await client?.end().catch(() => undefined);
      })
      .finally(() => {
        this.rebalancing = undefined;
      });
    return this.rebalancing;
  }

  private async rebalanceOnce(): Promise<void> {
    if (this.stopped) return;
    const client = await this.session();
    const members = await this.countMembers(client);
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
      // The lanes stop and their sends finish before another process may take these partitions. Sends can take
      // longer than idle_session_timeout (a slow Discord, a long rate-limit queue): meanwhile the session shows
      // it is alive, or the server would end it and free every partition while those sends are in flight.
      const heartbeatMs = Math.min(
        this.options.rebalanceMs ?? DEFAULT_REBALANCE_MS,
        (this.options.idleTimeoutMs ?? 10_000) / 2,
      );
      const heartbeat = setInterval(() => void this.query(client, 'SELECT 1').catch(() => undefined), heartbeatMs);
      try {
        await this.listener?.losing(extra);
      } finally {
        clearInterval(heartbeat);
      }
      for (const partition of extra) {
        await this.query(client, 'SELECT pg_advisory_unlock($1, $2)', [PARTITION_CLASS, partition]);
      }
    } else if (this.held.size < target) {
      const locked: number[] = [];
      for (const partition of shuffled(PARTITIONS)) {
        if (this.held.size + locked.length >= target) break;
        if (this.held.has(partition)) continue;
        const { rows } = await this.query<{ locked: boolean }>(
          client,
          'SELECT pg_try_advisory_lock($1, $2) AS locked',
          [PARTITION_CLASS, partition],
        );
        if (rows[0]?.locked) locked.push(partition);
      }
      if (locked.length > 0) {
        // A new epoch for each, before any lane starts: from this commit on, the previous owner's writes are
        // refused (the store checks the epoch), and its last ones, if any, are already committed and seen here.
        for (const { partition, epoch } of await this.nextEpochs(client, locked)) {
          this.epochs.set(partition, epoch);
          this.held.add(partition);
        }
        this.listener?.gained(locked);
      }
    }

    if (this.options.wantsGateway && !this.gatewayHeld) {
      const { rows } = await this.query<{ locked: boolean }>(client, 'SELECT pg_try_advisory_lock($1, 0) AS locked', [
        GATEWAY_CLASS,
      ]);
      if (rows[0]?.locked) {
        this.gatewayHeld = true;
        this.options.onGateway?.(true);
      }
    }
  }

  private async nextEpochs(client: pg.Client, partitions: number[]): Promise<Lease[]> {
    const { rows } = await this.query<{ partition: number; epoch: string }>(
      client,
      `INSERT INTO feed_lease (partition, epoch) SELECT partition, 1 FROM unnest($1::int[]) AS partition
       ON CONFLICT (partition) DO UPDATE SET epoch = feed_lease.epoch + 1
       RETURNING partition, epoch`,
      [partitions],
    );
    return rows.map((row) => ({ partition: row.partition, epoch: Number(row.epoch) }));
  }

  /** A statement on the lease session; its answer shows the session was alive when it was sent. */
  private async query<Row extends pg.QueryResultRow>(
    client: pg.Client,
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<Row>> {
    const sentAt = performance.now();
    const result = await client.query<Row>(text, values);
    if (client === this.client) this.aliveAt = Math.max(this.aliveAt ?? 0, sentAt);
    return result;
  }

  /** The lease session, made (with its member lock) when there is none. */
  private async session(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client(this.config);
    client.on('error', (error) => {
      // Handled by the next rebalance, which finds the session gone; the process must not crash here.
      this.options.logger.warn({ err: { message: error.message } }, 'the feed lease session broke');
    });
    await client.connect();
    try {
      await client.query(`SET idle_session_timeout = ${Math.round(this.idleTimeoutMs)}`);
      for (let slot = 0; slot < MEMBER_SLOTS; slot += 1) {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
          MEMBER_CLASS,
          slot,
        ]);
        if (rows[0]?.locked) {
          this.client = client;
          this.aliveAt = undefined;
          return client;
        }
      }
      throw new Error(`more than ${MEMBER_SLOTS} feed processes share this database`);
    } catch (error) {
      // Closed, not left open: a connection holding a member lock would count as a member that takes no share.
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  private async countMembers(client: pg.Client): Promise<number> {
    const { rows } = await this.query<{ members: number }>(
      client,
      `SELECT count(*)::int AS members FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND classid = $1 AND objsubid = 2
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
      [MEMBER_CLASS],
    );
    return rows[0]?.members ?? 1;
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
