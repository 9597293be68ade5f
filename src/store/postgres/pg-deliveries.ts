import type pg from 'pg';

import { dedupeKeyOf } from '../dedupe-key.js';
import {
  type AcceptOptions,
  type AcceptOutcome,
  type BrokenChannel,
  type ChannelWithWork,
  type DeliveryState,
  type DroppedHeld,
  type GuildFeedStatus,
  type Lease,
  type NewDelivery,
  type ParkedEntry,
  type PostedDelivery,
  type QueuedEntry,
} from '../deliveries.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import {
  countByGuild,
  POSTED_COLUMNS,
  toChannelWithWork,
  toFeedStatus,
  toOpenEntry,
  toParked,
  toPosted,
  toQueued,
  type ChannelRow,
  type DeliveryRow,
  type LaneRow,
  type MutedCount,
  type ParkedCount,
  type PostedRow,
} from '../delivery-rows.js';
import { placementOf } from '../placement.js';
import { channelOf, resolveRoute } from '../routing-rules.js';
import { holdLease } from './hold-lease.js';
import { PgAcceptBatcher } from './pg-accept-batcher.js';
import { PgBrokenChannels } from './pg-broken-channels.js';
import type { PostgresGuildSettings } from './pg-guild-settings.js';
import { notify } from './pg-signals.js';
import { inTransaction } from './transaction.js';

/** Deletes of expired posted deliveries go in slices, so a big sweep never holds locks for long. */
const SWEEP_SLICE = 5_000;

const FORGET_MESSAGE_SQL = 'DELETE FROM written_message WHERE channel_id = $1 AND nonce = $2';

/** How many times an accept routed with settings that changed meanwhile is routed again before giving up. */
const STALE_RETRIES = 5;

/**
 * The delivery queue in PostgreSQL. Every guarantee comes from the engine: the unique key dedupes concurrent
 * copies on any number of processes (`INSERT … ON CONFLICT DO NOTHING` inside bridge_accept_placed), the guild's
 * advisory transaction lock makes a guild's order its commit order, and NOTIFY announces work at commit.
 */
export class PostgresDeliveries implements DeliveryQueue {
  private readonly batcher: PgAcceptBatcher;
  private readonly broken: PgBrokenChannels;

  constructor(
    private readonly pool: pg.Pool,
    private readonly guilds: PostgresGuildSettings,
  ) {
    this.batcher = new PgAcceptBatcher(pool);
    this.broken = new PgBrokenChannels(pool);
  }

  async accept(delivery: NewDelivery, options: AcceptOptions = {}): Promise<AcceptOutcome> {
    for (let attempt = 0; attempt <= STALE_RETRIES; attempt += 1) {
      // Placed by the cached settings and broken channels; bridge_accept_placed answers 'stale' if either changed.
      const fresh = attempt > 0;
      const { settings, version } = await this.guilds.versioned(delivery.guildId, fresh);
      const route = resolveRoute(settings, delivery);
      const channelId = channelOf(route);
      const brokenSeen = channelId === undefined ? undefined : await this.broken.reasonOf(channelId, fresh);
      const { keepsBody, ...place } = placementOf(route, brokenSeen, delivery.receivedAt);
      const outcome = await this.batcher.accept({
        ...place,
        hookId: delivery.hookId,
        deliveryId: dedupeKeyOf(delivery.deliveryId),
        guildId: delivery.guildId,
        event: delivery.event,
        rawBody: keepsBody ? delivery.rawBody : null,
        receivedAt: delivery.receivedAt,
        version,
        brokenSeen: brokenSeen ?? null,
        server: delivery.server ?? null,
        caseType: delivery.caseType ?? null,
        requireHook: options.requireHook ?? false,
      });
      if (outcome !== 'stale') return outcome;
    }
    throw new Error('the guild settings or the channel kept changing while a delivery was placed');
  }

  async channelsWithWork(): Promise<ChannelWithWork[]> {
    const { rows } = await this.pool.query<LaneRow>(
      `SELECT lane.channel_id, lane.guild_id, channel_state.retry_at FROM
         (SELECT channel_id, min(guild_id) AS guild_id FROM delivery WHERE state = 'waiting' GROUP BY channel_id) AS lane
       LEFT JOIN channel_state ON channel_state.channel_id = lane.channel_id`,
    );
    return rows.map(toChannelWithWork);
  }

  async nextFor(channelId: string, max: number): Promise<QueuedEntry[]> {
    // One statement, so one snapshot: the head and the entries after it are seen together. Read apart, another
    // process's lane (an overlap while a partition changes hands) could claim the head in between, and this lane
    // would write down the entries after it and post them first.
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT * FROM delivery WHERE channel_id = $1 AND state = 'waiting' ORDER BY seq LIMIT $2`,
      [channelId, max],
    );
    const head = rows[0];
    if (!head) return [];
    if (head.claim_nonce) {
      const { rows: written } = await this.pool.query<DeliveryRow>(
        `SELECT * FROM delivery WHERE channel_id = $1 AND state = 'waiting' AND claim_nonce = $2 ORDER BY seq`,
        [channelId, head.claim_nonce],
      );
      return written.map(toQueued);
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
      const { rowCount } = await client.query(
        `UPDATE delivery SET claim_nonce = $1
         WHERE channel_id = $2 AND state = 'waiting' AND claim_nonce IS NULL AND seq = ANY($3::bigint[])`,
        [nonce, channelId, seqs],
      );
      if (rowCount === seqs.length) {
        if (message !== undefined) {
          await client.query(
            `INSERT INTO written_message (channel_id, nonce, message) VALUES ($1, $2, $3)
             ON CONFLICT (channel_id) DO UPDATE SET nonce = EXCLUDED.nonce, message = EXCLUDED.message`,
            [channelId, nonce, message],
          );
        }
        return true;
      }
      // One of them moved meanwhile (re-routed, or written down by another owner): nothing is claimed.
      await client.query('ROLLBACK');
      await client.query('BEGIN');
      return false;
    });
  }

  async writtenMessage(channelId: string, nonce: string): Promise<string | undefined> {
    const { rows } = await this.pool.query<{ message: string }>(
      'SELECT message FROM written_message WHERE channel_id = $1 AND nonce = $2',
      [channelId, nonce],
    );
    return rows[0]?.message;
  }

  async ack(channelId: string, nonce: string, postedAt: number, lease?: Lease): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await holdLease(client, lease);
      await client.query(
        `UPDATE delivery SET state = 'posted', raw_body = NULL, posted_at = $1, claim_nonce = NULL
         WHERE channel_id = $2 AND state = 'waiting' AND claim_nonce = $3`,
        [postedAt, channelId, nonce],
      );
      await client.query(FORGET_MESSAGE_SQL, [channelId, nonce]);
      await client.query('UPDATE channel_state SET failures = 0, retry_at = NULL WHERE channel_id = $1', [channelId]);
    });
  }

  async release(channelId: string, nonce: string, lease?: Lease): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await holdLease(client, lease);
      await client.query(
        `UPDATE delivery SET claim_nonce = NULL WHERE channel_id = $1 AND state = 'waiting' AND claim_nonce = $2`,
        [channelId, nonce],
      );
      await client.query(FORGET_MESSAGE_SQL, [channelId, nonce]);
    });
  }

  async recordFailure(channelId: string, guildId: string, retryAt: number): Promise<number> {
    const { rows } = await this.pool.query<{ failures: number }>(
      `INSERT INTO channel_state (channel_id, guild_id, failures, retry_at) VALUES ($1, $2, 1, $3)
       ON CONFLICT (channel_id) DO UPDATE SET failures = channel_state.failures + 1, retry_at = EXCLUDED.retry_at
       RETURNING failures`,
      [channelId, guildId, retryAt],
    );
    return rows[0]?.failures ?? 1;
  }

  async parkRefused(seqs: readonly number[], detail: string, at: number): Promise<void> {
    await this.pool.query(
      `UPDATE delivery SET state = 'parked', park_kind = 'refused', park_detail = $1, parked_at = $2, claim_nonce = NULL
       WHERE state = 'waiting' AND seq = ANY($3::bigint[])`,
      [detail, at, seqs],
    );
  }

  async parkBrokenChannel(channel: BrokenChannel): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(
        `INSERT INTO channel_state (channel_id, guild_id, broken_status, broken_reason, broken_since)
         VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (channel_id) DO UPDATE SET broken_status = EXCLUDED.broken_status,
           broken_reason = EXCLUDED.broken_reason, broken_since = EXCLUDED.broken_since, failures = 0, retry_at = NULL`,
        [channel.channelId, channel.guildId, channel.status, channel.reason, channel.since],
      );
      await client.query(
        `UPDATE delivery SET state = 'parked', park_kind = 'broken', park_detail = $1, parked_at = $2, claim_nonce = NULL
         WHERE channel_id = $3 AND state = 'waiting'`,
        [channel.reason, channel.since, channel.channelId],
      );
    });
  }

  async retryAtOf(channelId: string): Promise<number | undefined> {
    const { rows } = await this.pool.query<{ retry_at: number | null }>(
      'SELECT retry_at FROM channel_state WHERE channel_id = $1',
      [channelId],
    );
    return rows[0]?.retry_at ?? undefined;
  }

  async statusOf(guildId: string): Promise<GuildFeedStatus> {
    const { rows: waitingRows } = await this.pool.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM delivery WHERE guild_id = $1 AND state = 'waiting'`,
      [guildId],
    );
    const { rows: parked } = await this.pool.query<ParkedCount>(
      `SELECT park_kind, event, count(*)::int AS n FROM delivery WHERE guild_id = $1 AND state = 'parked'
       GROUP BY park_kind, event`,
      [guildId],
    );
    const { rows: muted } = await this.pool.query<MutedCount>(
      `SELECT event, count(*)::int AS n FROM delivery WHERE guild_id = $1 AND muted GROUP BY event`,
      [guildId],
    );
    const { rows: channels } = await this.pool.query<ChannelRow>(
      'SELECT * FROM channel_state WHERE guild_id = $1 ORDER BY channel_id',
      [guildId],
    );
    return toFeedStatus(waitingRows[0]?.waiting ?? 0, parked, muted, channels);
  }

  async listParked(guildId: string, page: { offset: number; limit: number }): Promise<ParkedEntry[]> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT * FROM delivery WHERE guild_id = $1 AND state = 'parked' ORDER BY seq LIMIT $2 OFFSET $3`,
      [guildId, page.limit, page.offset],
    );
    return rows.map(toParked);
  }

  async parkedOne(guildId: string, seq: number): Promise<ParkedEntry | undefined> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT * FROM delivery WHERE guild_id = $1 AND seq = $2 AND state = 'parked'`,
      [guildId, seq],
    );
    const [row] = rows;
    return row && toParked(row);
  }

  requeueParked(guildId: string, seq: number, channelId: string, at: number): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ park_kind: string; channel_id: string | null }>(
        `SELECT park_kind, channel_id FROM delivery WHERE guild_id = $1 AND seq = $2 AND state = 'parked' FOR UPDATE`,
        [guildId, seq],
      );
      const [entry] = rows;
      if (!entry) return false;
      const waitAgain = `UPDATE delivery SET state = 'waiting', channel_id = $1, park_kind = NULL, park_detail = NULL,
         parked_at = NULL, claim_nonce = NULL`;
      if (entry.park_kind === 'broken' && entry.channel_id === channelId) {
        await client.query(`${waitAgain} WHERE channel_id = $1 AND state = 'parked' AND park_kind = 'broken'`, [
          channelId,
        ]);
      } else {
        await client.query(`${waitAgain} WHERE seq = $2`, [channelId, seq]);
      }
      await client.query(
        `UPDATE channel_state SET broken_status = NULL, broken_reason = NULL, broken_since = NULL WHERE channel_id = $1`,
        [channelId],
      );
      await notify(client, { kind: 'work', channelId, guildId, at });
      return true;
    });
  }

  async discardParked(guildId: string, seq: number, at: number): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE delivery SET state = 'posted', posted_at = $1, raw_body = NULL, claim_nonce = NULL
       WHERE guild_id = $2 AND seq = $3 AND state = 'parked'`,
      [at, guildId, seq],
    );
    return (rowCount ?? 0) > 0;
  }

  async listPosted(page: { afterSeq: number; limit: number }): Promise<Array<PostedDelivery & { seq: number }>> {
    const { rows } = await this.pool.query<PostedRow>(
      `SELECT ${POSTED_COLUMNS} FROM delivery WHERE state = 'posted' AND seq > $1 ORDER BY seq LIMIT $2`,
      [page.afterSeq, page.limit],
    );
    return rows.map(toPosted);
  }

  async rememberPosted(deliveries: readonly PostedDelivery[]): Promise<number> {
    // One statement for the whole page: the rows travel as one JSON array.
    const { rowCount } = await this.pool.query(
      `INSERT INTO delivery (seq, hook_id, delivery_id, guild_id, event, server, case_type, received_at, state,
                             posted_at, muted)
       SELECT nextval('delivery_seq'), d."hookId", d."deliveryId", d."guildId", d.event, d.server, d."caseType",
              d."receivedAt", 'posted', d."postedAt", d.muted
       FROM jsonb_to_recordset($1::jsonb) AS d("hookId" TEXT, "deliveryId" TEXT, "guildId" TEXT, event TEXT,
              server TEXT, "caseType" TEXT, "receivedAt" BIGINT, "postedAt" BIGINT, muted BOOLEAN)
       ON CONFLICT (hook_id, delivery_id) DO NOTHING`,
      [JSON.stringify(deliveries)],
    );
    return rowCount ?? 0;
  }

  async sweepPosted(before: number): Promise<number> {
    let total = 0;
    for (;;) {
      const { rowCount } = await this.pool.query(
        `DELETE FROM delivery WHERE seq IN
           (SELECT seq FROM delivery WHERE state = 'posted' AND posted_at < $1 LIMIT ${SWEEP_SLICE})`,
        [before],
      );
      total += rowCount ?? 0;
      if ((rowCount ?? 0) < SWEEP_SLICE) return total;
    }
  }

  async dropParked(before: number, limit: number): Promise<DroppedHeld[]> {
    const { rows } = await this.pool.query<{ guild_id: string }>(
      `DELETE FROM delivery WHERE seq IN
         (SELECT seq FROM delivery WHERE state = 'parked' AND parked_at < $1 ORDER BY parked_at LIMIT $2)
       RETURNING guild_id`,
      [before, limit],
    );
    return countByGuild(rows);
  }

  async stateOf(hookId: string, deliveryId: string): Promise<DeliveryState | undefined> {
    const { rows } = await this.pool.query<{ state: DeliveryState }>(
      'SELECT state FROM delivery WHERE hook_id = $1 AND delivery_id = $2',
      [hookId, dedupeKeyOf(deliveryId)],
    );
    return rows[0]?.state;
  }

  async listOpen(): Promise<Array<QueuedEntry | ParkedEntry>> {
    const { rows } = await this.pool.query<DeliveryRow>(
      `SELECT * FROM delivery WHERE state IN ('waiting', 'parked') ORDER BY seq`,
    );
    return rows.map(toOpenEntry);
  }

  async countOpen(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM delivery WHERE state IN ('waiting', 'parked')`,
    );
    return rows[0]?.n ?? 0;
  }
}
