import type pg from 'pg';

import { partitionOf, type CoordinationOptions, type FeedOwnership, type OwnershipListener } from '../coordination.js';
import type { Lease } from '../deliveries.js';
import type { StoreSignals } from '../signals.js';
import { LeaseSession, MEMBER_CLASS } from './lease-session.js';
import { MemberWatch } from './member-watch.js';
import { tryGateway } from './partition-locks.js';
import { takeIdentifyTurn } from './pg-identify-turns.js';
import { PartitionShare } from './pg-partition-share.js';
import { ShardShare } from './pg-shard-share.js';
import { notify } from './pg-signals.js';

/** The safety net's period: a dead process's partitions are taken at once (the member watch, NOTIFY), or then. */
const DEFAULT_REBALANCE_MS = 500;
/** When an identify turn is asked again while the lease session is being made again. */
const IDENTIFY_RETRY_MS = 500;

/**
 * `rebalanceMs`: how often shares are rebalanced (and the session shows it is alive). `idleTimeoutMs`: how long
 * a silent session lives (idle_session_timeout): a hung process loses its partitions after this.
 */
export type LeaseOptions = CoordinationOptions;

/**
 * The feed processes' shares of the partitions, through session advisory locks on a connection of its own.
 * A rebalance counts the members (their member locks, in pg_locks), aims at an even share, takes free partitions
 * with pg_try_advisory_lock and gives back extra ones with pg_advisory_unlock, after its lanes for them stopped.
 * It runs when a member's session ends (the member watch is granted that member's lock: a killed process's
 * locks go with its connection, a hung one's after idleTimeoutMs), when another process NOTIFYs that it joined,
 * gave partitions back or saw a member die, and every `rebalanceMs` as a safety net. Where the process opens
 * gateway shards (`options.shards`), the same rebalance shares them out too (pg-shard-share.ts).
 */
export class PostgresLeases implements FeedOwnership {
  private readonly session: LeaseSession;
  private readonly watch: MemberWatch;
  private readonly partitionShare: PartitionShare;
  private readonly shardShare: ShardShare | undefined;
  private gatewayHeld = false;
  private listener: OwnershipListener | undefined;
  private timer: NodeJS.Timeout | undefined;
  private rebalancing: Promise<void> | undefined;
  /** A loss of every partition begun outside a rebalance (the session unconfirmed), until its lanes stopped. */
  private losing: Promise<void> | undefined;
  /** A rebalance was asked for while one ran: it runs again after, as it may have missed the change. */
  private again = false;
  /** The others are to hear of a change found here (a member gone): NOTIFYed by the next rebalance. */
  private tellOthers = false;
  private unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(
    config: pg.ClientConfig,
    private readonly options: LeaseOptions,
    private readonly signals?: StoreSignals,
  ) {
    this.partitionShare = new PartitionShare(
      () => this.listener,
      options.logger,
      options.keepTakenMs,
      (share) => options.onShare?.(share),
    );
    this.shardShare = options.shards ? new ShardShare(options.shards, options.logger) : undefined;
    this.session = new LeaseSession(config, options.idleTimeoutMs ?? 10_000, options.logger);
    // No statement or query timeout (0): the wait lasts as long as the member watched lives (keepalive notices a
    // lost server).
    const name = `${config.application_name ?? 'feed-leases'}-watch`;
    this.watch = new MemberWatch(
      { ...config, statement_timeout: 0, query_timeout: 0, application_name: name },
      MEMBER_CLASS,
      () => {
        this.tellOthers = true;
        void this.rebalance();
      },
      options.logger,
    );
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
    const epoch = this.partitionShare.epochOf(partition);
    if (epoch === undefined) return undefined;
    if (!this.session.trusted()) {
      // Lost now, not only until the session answers again: a lane that stopped on it must hear `losing`, and the
      // partition come back through `gained`, or that lane's channel would wait for a poke that never comes.
      this.dropIfUnconfirmed();
      return undefined;
    }
    return { partition, epoch };
  }

  /**
   * Whether this process holds the shard, its session confirmed recently enough that no other process can have
   * taken it: a paused process answers nothing on a shard another may hold by now. Undefined without shards.
   */
  get holdsShard(): ((shard: number) => boolean) | undefined {
    const share = this.shardShare;
    if (!share) return undefined;
    return (shard) => {
      if (!share.holds(shard)) return false;
      if (this.session.trusted()) return true;
      this.dropIfUnconfirmed();
      return false;
    };
  }

  /**
   * The identify turn of this bucket, for the whole deployment: 0 when taken, else when to ask again (ms). Asked on
   * the lease session, not the store's pool: the pool can be all taken by statements waiting on a lock (a long
   * migration, a vacuum), and a shard waiting on it could not be given up when it goes to another process.
   */
  async identifyTurn(bucket: number, spacingMs: number): Promise<number> {
    const connection = this.session.connection;
    // No session now (it is being made again): no shard is held either; asked again shortly.
    if (!connection) return IDENTIFY_RETRY_MS;
    return takeIdentifyTurn(connection, bucket, spacingMs);
  }

  /** The gateway shards held now (tests). */
  get shards(): number[] {
    return this.shardShare?.shards ?? [];
  }

  /** The partitions held now (tests, /status). */
  get partitions(): number[] {
    return this.partitionShare.partitions;
  }

  async start(listener: OwnershipListener): Promise<void> {
    this.listener = listener;
    this.unsubscribe = this.signals?.subscribe((signal) => {
      if (signal.kind === 'leases' || signal.kind === 'resync') void this.rebalance();
    });
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
    this.unsubscribe?.();
    await this.watch.stop();
    await this.rebalancing;
    await this.losing;
    await this.loseAll();
    await this.session.close({ wait: true });
  }

  /**
   * A rebalance that has not been answered for longer than the leases are trusted (the server is unreachable,
   * the process was paused): the lanes stop now, before another process may take their partitions, and the
   * session is dropped, so the server frees whatever it still holds and the next rebalance starts afresh.
   */
  private dropIfUnconfirmed(): void {
    const holding = this.partitionShare.size + (this.shardShare?.size ?? 0);
    if (this.stopped || holding === 0 || this.session.trusted()) return;
    this.options.logger.warn(
      { sinceMs: this.session.silentForMs(), partitions: this.partitionShare.size },
      'the feed lease session has not answered in time: its lanes stop and the session is dropped',
    );
    const losing = this.loseAll().finally(() => {
      if (this.losing === losing) this.losing = undefined;
    });
    this.losing = losing;
    void this.session.close({ wait: false });
  }

  private rebalance(): Promise<void> {
    if (this.rebalancing) {
      this.again = true;
      return this.rebalancing;
    }
    this.again = false;
    this.rebalancing = this.rebalanceOnce()
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
        if (this.again && !this.stopped) void this.rebalance();
      });
    return this.rebalancing;
  }

  private async rebalanceOnce(): Promise<void> {
    // A loss under way finishes first (its lanes stopped): a partition is never gained again while its old lanes
    // still send, and the gateway's loss is told before its gain.
    await this.losing;
    if (this.stopped) return;
    const joining = !this.session.isOpen;
    const client = await this.session.open();
    const members = await this.session.members(client);
    const cancel = async (pid: number) => {
      await this.session.query(client, 'SELECT pg_cancel_backend($1)', [pid]);
    };
    void this.watch.watch(members.watched, cancel).catch(() => undefined);
    // Those already there hear at once of a process that joined (they give back) or of one that died (they take).
    if (joining || this.tellOthers) {
      this.tellOthers = false;
      await notify(client, { kind: 'leases' });
    }
    await this.partitionShare.balance(this.session, client, members.count, this.heartbeatMs());
    await this.shardShare?.balance(this.session, client, members.count, this.heartbeatMs());

    if (this.options.wantsGateway && !this.gatewayHeld && (await tryGateway(this.session, client))) {
      this.gatewayHeld = true;
      this.options.onGateway?.(true);
    }
  }

  /** How often the session shows it is alive while lanes or shards stop (they can take longer than its timeout). */
  private heartbeatMs(): number {
    return Math.min(this.options.rebalanceMs ?? DEFAULT_REBALANCE_MS, (this.options.idleTimeoutMs ?? 10_000) / 2);
  }

  /** The session is gone (or stopping): every lease with it. The lanes stop first. */
  private async loseAll(): Promise<void> {
    await this.partitionShare.loseAll();
    await this.shardShare?.loseAll();
    if (this.gatewayHeld) {
      this.gatewayHeld = false;
      this.options.onGateway?.(false);
    }
  }
}
