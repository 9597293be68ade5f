import type pg from 'pg';

import type { BrokenChannel, ChannelWithWork, Lease, QueuedEntry } from '../deliveries.js';
import { toChannelWithWork, toQueued } from '../delivery-rows.js';
import type { LaneQueue } from '../lane-queue.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { holdLease } from './hold-lease.js';
import { changesOf, rowsOf, SQL } from './pg-sql.js';
import { inTransaction } from './transaction.js';

/**
 * The feed's lanes on PostgreSQL. A lane's writes (write-down, confirm, release) carry the lease of its guild's
 * partition and are refused once another process took the partition over (hold-lease.ts).
 */
export class PostgresLaneQueue implements LaneQueue {
  constructor(private readonly pool: pg.Pool) {}

  async channelsWithWork(): Promise<ChannelWithWork[]> {
    return (await rowsOf(this.pool, SQL.channelsWithWork, [])).map(toChannelWithWork);
  }

  async nextFor(channelId: string, max: number): Promise<QueuedEntry[]> {
    // One statement, so one snapshot: the head and the entries after it are seen together. Read apart, another
    // process's lane (an overlap while a partition changes hands) could write the head down in between, and this lane
    // would write down the entries after it and post them first.
    const rows = await rowsOf(this.pool, SQL.waitingHead, [channelId, max]);
    const head = rows[0];
    if (!head) return [];
    if (head.claim_nonce) {
      return (await rowsOf(this.pool, SQL.writtenEntries, [head.claim_nonce, channelId])).map(toQueued);
    }
    // Up to the first entry written down for another message: nothing after it may go before it.
    const stop = rows.findIndex((row) => row.claim_nonce !== null);
    return (stop === -1 ? rows : rows.slice(0, stop)).map(toQueued);
  }

  async writeDown(
    channelId: string,
    nonce: string,
    seqs: readonly number[],
    message?: string,
    lease?: Lease,
  ): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      await holdLease(client, lease);
      if ((await changesOf(client, SQL.writeDown, [nonce, channelId, d.list(seqs)])) === seqs.length) {
        if (message !== undefined) await changesOf(client, SQL.saveMessage, [channelId, nonce, message]);
        return true;
      }
      // One of them moved meanwhile (re-routed, or written down by another owner): nothing is written down.
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      return false;
    });
  }

  async writtenMessage(channelId: string, nonce: string): Promise<string | undefined> {
    return (await rowsOf(this.pool, SQL.writtenMessage, [channelId, nonce]))[0]?.message;
  }

  async ack(channelId: string, nonce: string, postedAt: number, lease?: Lease): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await holdLease(client, lease);
      await changesOf(client, SQL.markPosted, [postedAt, nonce, channelId]);
      await changesOf(client, SQL.forgetMessage, [channelId, nonce]);
      await changesOf(client, SQL.clearFailures, [channelId]);
    });
  }

  async release(channelId: string, nonce: string, lease?: Lease): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await holdLease(client, lease);
      await changesOf(client, SQL.unwrite, [nonce, channelId]);
      await changesOf(client, SQL.forgetMessage, [channelId, nonce]);
    });
  }

  async recordFailure(channelId: string, guildId: string, retryAt: number): Promise<number> {
    return (await rowsOf(this.pool, SQL.recordFailure, [channelId, guildId, retryAt]))[0]?.failures ?? 1;
  }

  async holdRefused(seqs: readonly number[], detail: string, at: number): Promise<void> {
    await changesOf(this.pool, SQL.holdRefused, [detail, at, d.list(seqs)]);
  }

  async holdBrokenChannel(channel: BrokenChannel): Promise<void> {
    const { channelId, guildId, status, reason, since } = channel;
    await inTransaction(this.pool, async (client) => {
      await changesOf(client, SQL.markBroken, [channelId, guildId, status, reason, since]);
      await changesOf(client, SQL.holdBrokenLane, [reason, since, channelId]);
    });
  }

  async retryAtOf(channelId: string): Promise<number | undefined> {
    return (await rowsOf(this.pool, SQL.retryAtOf, [channelId]))[0]?.retry_at ?? undefined;
  }
}
