import type pg from 'pg';

import type { BrokenChannel, ChannelWithWork, Lease, QueuedEntry } from '../deliveries.js';
import { toChannelWithWork, toQueued } from '../delivery-rows.js';
import type { LaneQueue } from '../lane-queue.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { LeaseCheckedWrites } from './lease-checked-writes.js';
import { changesOf, rowsOf, SQL } from './pg-sql.js';
import { inTransaction } from './transaction.js';

/** Entries written down for a message (in a transaction: all of them or none, see writeDown). */
const WRITE_DOWN = new LeaseCheckedWrites([SQL.writeDown]);
/** A message confirmed: its entries posted, what was written down of it forgotten, the channel's failures cleared. */
const CONFIRM = new LeaseCheckedWrites([SQL.markPosted, SQL.forgetMessage, SQL.clearFailures]);
/** A message written down and not sent: its entries wait again, unwritten. */
const RELEASE = new LeaseCheckedWrites([SQL.unwrite, SQL.forgetMessage]);
/** A message Discord refused: its entries held. */
const HOLD_REFUSED = new LeaseCheckedWrites([SQL.holdRefused]);
/** A channel Discord refuses: every entry of its lane held (the channel marked broken in the same transaction). */
const HOLD_BROKEN_LANE = new LeaseCheckedWrites([SQL.holdBrokenLane]);

/**
 * The feed's lanes on PostgreSQL. A lane's writes (write-down, confirm, release, holds) carry the lease of its
 * guild's partition and are refused once another process took the partition over (lease-checked-writes.ts).
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
      const [written] = await WRITE_DOWN.run(client, lease, [[nonce, channelId, d.list(seqs)]]);
      if (written === seqs.length) {
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
    await CONFIRM.run(this.pool, lease, [[postedAt, nonce, channelId], [channelId, nonce], [channelId]]);
  }

  async release(channelId: string, nonce: string, lease?: Lease): Promise<void> {
    await RELEASE.run(this.pool, lease, [
      [nonce, channelId],
      [channelId, nonce],
    ]);
  }

  async noteFailure(channelId: string, guildId: string, retryAt: number): Promise<number> {
    return (await rowsOf(this.pool, SQL.noteFailure, [channelId, guildId, retryAt]))[0]?.failures ?? 1;
  }

  async holdRefused(seqs: readonly number[], detail: string, at: number, lease?: Lease): Promise<void> {
    await HOLD_REFUSED.run(this.pool, lease, [[detail, at, d.list(seqs)]]);
  }

  async holdBrokenChannel(channel: BrokenChannel, lease?: Lease): Promise<void> {
    const { channelId, guildId, status, reason, since } = channel;
    await inTransaction(this.pool, async (client) => {
      // The lease first: its row stays locked until the commit, so the mark below goes with the holds or not at all.
      await HOLD_BROKEN_LANE.run(client, lease, [[reason, since, channelId]]);
      await changesOf(client, SQL.markBroken, [channelId, guildId, status, reason, since]);
    });
  }

  async retryAtOf(channelId: string): Promise<number | undefined> {
    return (await rowsOf(this.pool, SQL.retryAtOf, [channelId]))[0]?.retry_at ?? undefined;
  }
}
