import type pg from 'pg';

import type { Logger } from '../../base/logger.js';
import { PARTITIONS, type OwnershipListener } from '../coordination.js';
import type { LeaseSession } from './lease-session.js';
import { lockFree, shuffled, unlock, whileAlive } from './partition-locks.js';
import { notify } from './pg-signals.js';
import { TakeoverKeep } from './takeover-keep.js';

/**
 * A feed process's share of the partitions, held on its lease session (pg-leases.ts runs it within each
 * rebalance): a session advisory lock per partition and an epoch made when it was taken, which every write of its
 * lanes carries. The share aims at an even split; a partition given back has its lanes stopped before its lock goes.
 */
export class PartitionShare {
  /** Each held partition and its epoch, as this process made it when it took the partition, in the order taken. */
  private readonly held = new Map<number, number>();
  private readonly keep: TakeoverKeep;

  constructor(
    private readonly listener: () => OwnershipListener | undefined,
    private readonly logger: Logger,
    keepTakenMs: number | undefined,
    /** Told of this process's part of the partitions (its share of Discord's rate). */
    private readonly onShare: (share: number) => void,
  ) {
    this.keep = new TakeoverKeep(keepTakenMs);
  }

  /** The epoch this process took the partition with, while it holds it (the caller checks its session's trust). */
  epochOf(partition: number): number | undefined {
    return this.held.get(partition);
  }

  /** The partitions held now, in order (tests, /status). */
  get partitions(): number[] {
    return [...this.held.keys()].sort((a, b) => a - b);
  }

  get size(): number {
    return this.held.size;
  }

  /** One rebalance's part for the partitions: an even share of them. */
  async balance(session: LeaseSession, client: pg.Client, members: number, heartbeatMs: number): Promise<void> {
    const target = Math.ceil(PARTITIONS / members);
    if (this.held.size > target) await this.giveBack(session, client, target, members, heartbeatMs);
    else if (this.held.size < target) await this.take(session, client, target, members);
  }

  /** The session is gone (or stopping): every lease with it. The lanes stop first. */
  async loseAll(): Promise<void> {
    if (this.held.size === 0) return;
    const lost = [...this.held.keys()];
    this.held.clear();
    this.keep.reset();
    this.onShare(0);
    await this.listener()
      ?.losing(lost)
      .catch(() => undefined);
  }

  /**
   * Gives back what is over `target`, the last taken first, once what was taken over was kept long enough (see
   * takeover-keep.ts: until then this process has Discord's rate for the backlog); the others hear of it.
   */
  private async giveBack(
    session: LeaseSession,
    client: pg.Client,
    target: number,
    members: number,
    heartbeatMs: number,
  ): Promise<void> {
    if (this.keep.keeping()) return;
    const extra = [...this.held.keys()].reverse().slice(0, this.held.size - target);
    // Not this process's any more from here on (owns() says so): no new lane starts for them while the old
    // ones finish; the locks go only after that, so no other process takes them meanwhile.
    for (const partition of extra) this.held.delete(partition);
    // Hand-overs are logged (rare, and what a failover's timeline is made of).
    this.logger.info({ partitions: extra, members }, 'giving back feed partitions');
    // The lanes stop and their sends finish before another process may take these partitions.
    await whileAlive(session, client, heartbeatMs, async () => this.listener()?.losing(extra));
    // Counted out of this process's share of Discord's rate limit before the next owner can count it in.
    this.onShare(this.held.size / PARTITIONS);
    await unlock(session, client, extra);
    await notify(client, { kind: 'leases' });
    this.logger.info({ partitions: extra }, 'gave back feed partitions');
  }

  /** Takes free partitions up to `target`, in one statement, each with a new epoch before any lane starts. */
  private async take(session: LeaseSession, client: pg.Client, target: number, members: number): Promise<void> {
    const candidates = shuffled(PARTITIONS).filter((partition) => !this.held.has(partition));
    const locked = await lockFree(session, client, candidates, target - this.held.size);
    if (locked.length === 0) return;
    this.keep.took(this.held.size);
    // A new epoch for each, before any lane starts (see LeaseSession.nextEpochs).
    for (const { partition, epoch } of await session.nextEpochs(client, locked)) this.held.set(partition, epoch);
    this.onShare(this.held.size / PARTITIONS);
    this.logger.info({ partitions: locked, members }, 'took feed partitions');
    this.listener()?.gained(locked);
  }
}
