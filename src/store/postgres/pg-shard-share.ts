import type pg from 'pg';

import type { Logger } from '../../base/logger.js';
import type { ShardListener } from '../coordination.js';
import type { LeaseSession } from './lease-session.js';
import { lockFree, SHARD_CLASS, shuffled, unlock, whileAlive } from './partition-locks.js';
import { notify } from './pg-signals.js';

/**
 * A feed process's share of the gateway shards, held on its lease session as its partitions are (pg-leases.ts
 * runs it within each rebalance): a session advisory lock per shard, so a killed process's shards are free the
 * moment its session ends and a hung one's after idle_session_timeout. The share aims at an even split; a shard
 * given back has its connection closed before its lock goes, so no two processes hold a live session of one shard.
 *
 * Shards and feed partitions stay two things: partitions are fixed (64, hashed, and stamped into the fence of every
 * queued write), while the shard count is Discord's, grows with the bot, and a guild's shard is Discord's formula
 * (`(guild_id >> 22) % shards`). Tying them would re-partition the queue whenever Discord asks for more shards.
 */
export class ShardShare {
  private readonly held = new Set<number>();
  /** The deployment's shard count, read once per lease session. */
  private count: number | undefined;
  /** How many members the last rebalance counted. */
  private lastMembers: number | undefined;

  constructor(
    private readonly listener: ShardListener,
    private readonly logger: Logger,
  ) {}

  /** Whether this process holds the shard (the caller checks that its lease session is still trusted). */
  holds(shard: number): boolean {
    return this.held.has(shard);
  }

  /** The shards held now, in order (/healthz, /metrics, tests). */
  get shards(): number[] {
    return [...this.held].sort((a, b) => a - b);
  }

  get size(): number {
    return this.held.size;
  }

  /** One rebalance's part for the shards: the deployment's count first, then an even share of it. */
  async balance(session: LeaseSession, client: pg.Client, members: number, heartbeatMs: number): Promise<void> {
    this.count ??= await this.readCount(session, client, members);
    if (this.count === undefined) return;
    const target = Math.ceil(this.count / members);
    // Shards are taken only once two rebalances in a row counted the same members: processes started together
    // join a few hundred ms apart, and the first, alone for that moment, would open every shard and give most
    // back at once (a client each, and their memory kept by the process). A kill costs one more period.
    const settled = members === this.lastMembers;
    this.lastMembers = members;
    if (this.held.size > target) await this.giveBack(session, client, target, heartbeatMs);
    else if (this.held.size < target && settled) await this.take(session, client, target);
  }

  /** The session is gone (or stopping): every shard with it, their connections closed. */
  async loseAll(): Promise<void> {
    this.count = undefined;
    this.lastMembers = undefined;
    if (this.held.size === 0) return;
    const lost = this.shards;
    this.held.clear();
    this.logger.info({ shards: lost }, 'lost gateway shards with the lease session');
    await this.listener.losing(lost).catch(() => undefined);
  }

  /**
   * The deployment's shard count. A process alone (no other member: no other holds a shard) makes Discord's
   * recommendation the count, so a full restart takes Discord's new one; a process joining others takes theirs,
   * since a guild's shard depends on it. Undefined when there is none yet and Discord did not answer (next time).
   */
  private async readCount(session: LeaseSession, client: pg.Client, members: number): Promise<number | undefined> {
    if (members > 1) {
      const { rows } = await session.query<{ count: number }>(client, 'SELECT count FROM gateway_shards WHERE id = 1');
      if (rows[0]) return rows[0].count;
    }
    let recommended: number;
    try {
      recommended = await this.listener.recommended();
    } catch (error) {
      this.logger.warn(
        { err: { message: error instanceof Error ? error.message : String(error) } },
        'Discord did not say how many gateway shards to open; asked again at the next rebalance',
      );
      return undefined;
    }
    const upsert =
      members > 1
        ? 'ON CONFLICT (id) DO UPDATE SET count = gateway_shards.count'
        : 'ON CONFLICT (id) DO UPDATE SET count = EXCLUDED.count';
    const { rows } = await session.query<{ count: number }>(
      client,
      `INSERT INTO gateway_shards (id, count) VALUES (1, $1) ${upsert} RETURNING count`,
      [recommended],
    );
    const count = rows[0]?.count ?? recommended;
    this.logger.info({ shards: count, recommended }, 'the gateway shards are spread over the feed processes');
    return count;
  }

  /**
   * Gives back what is over `target`, the highest first: closed here before the locks go (heartbeats keep the
   * session alive meanwhile), then the others hear of it and take them.
   */
  private async giveBack(session: LeaseSession, client: pg.Client, target: number, heartbeatMs: number) {
    const extra = this.shards.reverse().slice(0, this.held.size - target);
    // Not this process's from here on: an interaction arriving on them is left to the next holder.
    for (const shard of extra) this.held.delete(shard);
    this.logger.info({ shards: extra }, 'giving back gateway shards');
    await whileAlive(session, client, heartbeatMs, () => this.listener.losing(extra));
    await unlock(session, client, extra, SHARD_CLASS);
    await notify(client, { kind: 'leases' });
  }

  /** Takes free shards up to `target`, in one statement; their connections open after. */
  private async take(session: LeaseSession, client: pg.Client, target: number): Promise<void> {
    const count = this.count ?? 0;
    const candidates = shuffled(count).filter((shard) => !this.held.has(shard));
    const locked = await lockFree(session, client, candidates, target - this.held.size, SHARD_CLASS);
    if (locked.length === 0) return;
    for (const shard of locked) this.held.add(shard);
    this.logger.info({ shards: locked, of: count }, 'took gateway shards');
    this.listener.gained(locked, count);
  }
}
