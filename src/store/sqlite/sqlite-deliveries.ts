import type { Database, Statement } from 'better-sqlite3';

import { BoundedCache } from '../bounded-cache.js';
import { dedupeKeyOf } from '../dedupe-key.js';
import type {
  AcceptOptions,
  AcceptOutcome,
  BrokenChannel,
  ChannelWithWork,
  DeliveryState,
  DroppedHeld,
  GuildFeedStatus,
  NewDelivery,
  ParkedEntry,
  PostedDelivery,
  QueuedEntry,
} from '../deliveries.js';
import type { DeliveryQueue } from '../delivery-queue.js';
import {
  countByGuild,
  POSTED_COLUMNS,
  routingKeysOf,
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
  type RoutingRow,
} from '../delivery-rows.js';
import { emptyGuildSettings, GuildSettingsSchema, type GuildSettings } from '../guild-settings.js';
import { placementOf } from '../placement.js';
import { channelOf, resolveRoute } from '../routing-rules.js';
import { RECORD_ACCEPTED_SQL } from './sqlite-hook-activity.js';
import type { WriteBatcher, WriteContext } from './write-batcher.js';

/** Entries a settings change may move: waiting and not written down, or parked for want of a usable channel. */
const MOVABLE = `((state = 'waiting' AND claim_nonce IS NULL) OR (state = 'parked' AND park_kind IN ('unrouted', 'broken')))`;

/** Guilds whose parsed settings are kept for the intake's routing. */
const PARSED_SETTINGS = 1_000;

/** Deletes of expired posted deliveries go in slices, so a big sweep never holds the writer for long. */
const SWEEP_SLICE = 5_000;

/**
 * The delivery queue in the `delivery` and `channel_state` tables. Writes go through the {@link WriteBatcher}
 * (group commit); reads run directly, and see only committed data (a batch runs within one synchronous call).
 */
export class SqliteDeliveries implements DeliveryQueue {
  private readonly settingsOf: Statement<[string], { settings: string }>;
  /** Stored settings text -> parsed: always right (keyed by what is stored now), bounded. */
  private readonly parsedSettings = new BoundedCache<GuildSettings>(PARSED_SETTINGS);
  private readonly brokenOf: Statement<[string], { broken_reason: string | null }>;
  private readonly insert: Statement<unknown[]>;
  private readonly recordAccepted: Statement<[string, number, string]>;
  private readonly hookStored: Statement<[string], { found: number }>;
  private readonly firstWaiting: Statement<[string], DeliveryRow>;
  private readonly claimed: Statement<[string, string], DeliveryRow>;
  private readonly unclaimed: Statement<[string, number], DeliveryRow>;
  private readonly claim: Statement<[string, string, string]>;
  private readonly unclaim: Statement<[string, string]>;
  private readonly posted: Statement<[number, string, string]>;
  private readonly clearFailures: Statement<[string]>;
  private readonly failure: Statement<[string, string, number], { failures: number }>;
  private readonly refused: Statement<[string, number, string]>;
  private readonly saveMessage: Statement<[string, string, string]>;
  private readonly messageOf: Statement<[string, string], { message: string }>;
  private readonly forgetMessage: Statement<[string, string]>;

  constructor(
    private readonly db: Database,
    private readonly writes: WriteBatcher,
    private readonly clock: () => number,
  ) {
    this.settingsOf = db.prepare('SELECT settings FROM guild_settings WHERE guild_id = ?');
    this.brokenOf = db.prepare(
      'SELECT broken_reason FROM channel_state WHERE channel_id = ? AND broken_status IS NOT NULL',
    );
    this.insert = db.prepare(`
      INSERT INTO delivery (hook_id, delivery_id, guild_id, event, server, case_type, received_at, raw_body, state,
                            channel_id, park_kind, park_detail, parked_at, posted_at, muted)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (hook_id, delivery_id) DO NOTHING`);
    this.recordAccepted = db.prepare(RECORD_ACCEPTED_SQL);
    this.hookStored = db.prepare('SELECT 1 AS found FROM hook WHERE hook_id = ?');
    this.firstWaiting = db.prepare(
      `SELECT * FROM delivery WHERE channel_id = ? AND state = 'waiting' ORDER BY seq LIMIT 1`,
    );
    // INDEXED BY: a written-down message is found through its nonce, never by reading the rest of its lane.
    this.claimed = db.prepare(
      `SELECT * FROM delivery INDEXED BY delivery_claimed
       WHERE claim_nonce = ? AND channel_id = ? AND state = 'waiting' ORDER BY seq`,
    );
    this.claim = db.prepare(
      `UPDATE delivery SET claim_nonce = ?
       WHERE channel_id = ? AND state = 'waiting' AND claim_nonce IS NULL AND seq IN (SELECT value FROM json_each(?))`,
    );
    this.unclaim = db.prepare(
      `UPDATE delivery INDEXED BY delivery_claimed SET claim_nonce = NULL
       WHERE claim_nonce = ? AND channel_id = ? AND state = 'waiting'`,
    );
    this.posted = db.prepare(
      `UPDATE delivery INDEXED BY delivery_claimed SET state = 'posted', raw_body = NULL, posted_at = ?, claim_nonce = NULL
       WHERE claim_nonce = ? AND channel_id = ? AND state = 'waiting'`,
    );
    this.clearFailures = db.prepare('UPDATE channel_state SET failures = 0, retry_at = NULL WHERE channel_id = ?');
    this.failure = db.prepare(
      `INSERT INTO channel_state (channel_id, guild_id, failures, retry_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (channel_id) DO UPDATE SET failures = failures + 1, retry_at = excluded.retry_at
       RETURNING failures`,
    );
    this.refused = db.prepare(
      `UPDATE delivery SET state = 'parked', park_kind = 'refused', park_detail = ?, parked_at = ?, claim_nonce = NULL
       WHERE state = 'waiting' AND seq IN (SELECT value FROM json_each(?))`,
    );
    this.saveMessage = db.prepare(
      `INSERT INTO written_message (channel_id, nonce, message) VALUES (?, ?, ?)
       ON CONFLICT (channel_id) DO UPDATE SET nonce = excluded.nonce, message = excluded.message`,
    );
    this.messageOf = db.prepare('SELECT message FROM written_message WHERE channel_id = ? AND nonce = ?');
    this.forgetMessage = db.prepare('DELETE FROM written_message WHERE channel_id = ? AND nonce = ?');
    this.unclaimed = db.prepare(
      `SELECT * FROM delivery WHERE channel_id = ? AND state = 'waiting' AND claim_nonce IS NULL ORDER BY seq LIMIT ?`,
    );
  }

  accept(delivery: NewDelivery, options: AcceptOptions = {}): Promise<AcceptOutcome> {
    return this.writes.run((tx) => {
      const { hookId, guildId, event, rawBody, receivedAt } = delivery;
      const deliveryId = dedupeKeyOf(delivery.deliveryId);
      // The single writer removes hooks too: a removal commits before this check or after this delivery.
      if (options.requireHook && !this.hookStored.get(hookId)) return 'unknown-hook';
      // Routed in the same transaction as it is stored: a settings change commits before or after, never between.
      const route = resolveRoute(this.readSettings(delivery.guildId), delivery);
      const place = placementOf(route, this.brokenReasonOf(channelOf(route)), receivedAt);
      // Counted, not announced: only the service's ping and refusals are waited for (hook-outcome signals).
      this.recordAccepted.run(hookId, receivedAt, event);
      const { changes } = this.insert.run(
        hookId,
        deliveryId,
        guildId,
        event,
        delivery.server ?? null,
        delivery.caseType ?? null,
        receivedAt,
        place.keepsBody ? rawBody : null,
        place.state,
        place.channelId,
        place.parkKind,
        place.parkDetail,
        place.parkedAt,
        place.postedAt,
        place.muted ? 1 : 0,
      );
      if (changes === 0) return 'duplicate';
      if (place.state === 'waiting' && place.channelId !== null) {
        tx.afterCommit({ kind: 'work', channelId: place.channelId, guildId, at: receivedAt });
      }
      return 'accepted';
    });
  }

  channelsWithWork(): Promise<ChannelWithWork[]> {
    const rows = this.db
      .prepare(
        `SELECT lane.channel_id, lane.guild_id, channel_state.retry_at FROM
           (SELECT channel_id, MIN(guild_id) AS guild_id FROM delivery
            WHERE state = 'waiting' AND channel_id IS NOT NULL GROUP BY channel_id) AS lane
         LEFT JOIN channel_state ON channel_state.channel_id = lane.channel_id`,
      )
      .all() as LaneRow[];
    return Promise.resolve(rows.map(toChannelWithWork));
  }

  nextFor(channelId: string, max: number): Promise<QueuedEntry[]> {
    const first = this.firstWaiting.get(channelId);
    if (!first) return Promise.resolve([]);
    const rows = first.claim_nonce
      ? this.claimed.all(first.claim_nonce, channelId)
      : this.unclaimed.all(channelId, max);
    return Promise.resolve(rows.map(toQueued));
  }

  // No lease argument: the file lock lets one process at a time open the file, so no other can take its lanes.
  writeDown(channelId: string, nonce: string, seqs: readonly number[], message?: string): Promise<boolean> {
    return this.writes.run(() => {
      if (this.claim.run(nonce, channelId, JSON.stringify(seqs)).changes === seqs.length) {
        if (message !== undefined) this.saveMessage.run(channelId, nonce, message);
        return true;
      }
      // One of them moved (a settings change re-routed it): undo, the lane reads again.
      this.unclaim.run(nonce, channelId);
      return false;
    });
  }

  writtenMessage(channelId: string, nonce: string): Promise<string | undefined> {
    return Promise.resolve(this.messageOf.get(channelId, nonce)?.message);
  }

  ack(channelId: string, nonce: string, postedAt: number): Promise<void> {
    return this.writes.run(() => {
      this.posted.run(postedAt, nonce, channelId);
      this.forgetMessage.run(channelId, nonce);
      this.clearFailures.run(channelId);
    });
  }

  release(channelId: string, nonce: string): Promise<void> {
    return this.writes.run(() => {
      this.unclaim.run(nonce, channelId);
      this.forgetMessage.run(channelId, nonce);
    });
  }

  recordFailure(channelId: string, guildId: string, retryAt: number): Promise<number> {
    return this.writes.run(() => this.failure.get(channelId, guildId, retryAt)?.failures ?? 1);
  }

  parkRefused(seqs: readonly number[], detail: string, at: number): Promise<void> {
    return this.writes.run(() => {
      this.refused.run(detail, at, JSON.stringify(seqs));
    });
  }

  parkBrokenChannel(channel: BrokenChannel): Promise<void> {
    return this.writes.run(() => {
      this.db
        .prepare(
          `INSERT INTO channel_state (channel_id, guild_id, broken_status, broken_reason, broken_since) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (channel_id) DO UPDATE SET broken_status = excluded.broken_status,
             broken_reason = excluded.broken_reason, broken_since = excluded.broken_since, failures = 0, retry_at = NULL`,
        )
        .run(channel.channelId, channel.guildId, channel.status, channel.reason, channel.since);
      this.db
        .prepare(
          `UPDATE delivery SET state = 'parked', park_kind = 'broken', park_detail = ?, parked_at = ?, claim_nonce = NULL
           WHERE channel_id = ? AND state = 'waiting'`,
        )
        .run(channel.reason, channel.since, channel.channelId);
    });
  }

  retryAtOf(channelId: string): Promise<number | undefined> {
    const row = this.db.prepare('SELECT retry_at FROM channel_state WHERE channel_id = ?').get(channelId) as
      { retry_at: number | null } | undefined;
    return Promise.resolve(row?.retry_at ?? undefined);
  }

  statusOf(guildId: string): Promise<GuildFeedStatus> {
    const { waiting } = this.db
      .prepare(`SELECT COUNT(*) AS waiting FROM delivery WHERE guild_id = ? AND state = 'waiting'`)
      .get(guildId) as { waiting: number };
    const parked = this.db
      .prepare(
        `SELECT park_kind, event, COUNT(*) AS n FROM delivery WHERE guild_id = ? AND state = 'parked'
         GROUP BY park_kind, event`,
      )
      .all(guildId) as ParkedCount[];
    const muted = this.db
      .prepare(`SELECT event, COUNT(*) AS n FROM delivery WHERE guild_id = ? AND muted = 1 GROUP BY event`)
      .all(guildId) as MutedCount[];
    const channels = this.db
      .prepare('SELECT * FROM channel_state WHERE guild_id = ? ORDER BY channel_id')
      .all(guildId) as ChannelRow[];
    return Promise.resolve(toFeedStatus(waiting, parked, muted, channels));
  }

  listParked(guildId: string, page: { offset: number; limit: number }): Promise<ParkedEntry[]> {
    const rows = this.db
      .prepare(`SELECT * FROM delivery WHERE guild_id = ? AND state = 'parked' ORDER BY seq LIMIT ? OFFSET ?`)
      .all(guildId, page.limit, page.offset) as DeliveryRow[];
    return Promise.resolve(rows.map(toParked));
  }

  parkedOne(guildId: string, seq: number): Promise<ParkedEntry | undefined> {
    const row = this.db
      .prepare(`SELECT * FROM delivery WHERE guild_id = ? AND seq = ? AND state = 'parked'`)
      .get(guildId, seq) as DeliveryRow | undefined;
    return Promise.resolve(row && toParked(row));
  }

  requeueParked(guildId: string, seq: number, channelId: string, at: number): Promise<boolean> {
    return this.writes.run((tx) => {
      const entry = this.db
        .prepare(`SELECT park_kind, channel_id FROM delivery WHERE guild_id = ? AND seq = ? AND state = 'parked'`)
        .get(guildId, seq) as { park_kind: string; channel_id: string | null } | undefined;
      if (!entry) return false;
      const waitAgain = `UPDATE delivery SET state = 'waiting', channel_id = ?, park_kind = NULL, park_detail = NULL,
         parked_at = NULL, claim_nonce = NULL`;
      if (entry.park_kind === 'broken' && entry.channel_id === channelId) {
        this.db
          .prepare(`${waitAgain} WHERE channel_id = ? AND state = 'parked' AND park_kind = 'broken'`)
          .run(channelId, channelId);
      } else {
        this.db.prepare(`${waitAgain} WHERE seq = ?`).run(channelId, seq);
      }
      this.db
        .prepare(
          `UPDATE channel_state SET broken_status = NULL, broken_reason = NULL, broken_since = NULL WHERE channel_id = ?`,
        )
        .run(channelId);
      tx.afterCommit({ kind: 'work', channelId, guildId, at });
      return true;
    });
  }

  discardParked(guildId: string, seq: number, at: number): Promise<boolean> {
    return this.writes.run(
      () =>
        this.db
          .prepare(
            `UPDATE delivery SET state = 'posted', posted_at = ?, raw_body = NULL, claim_nonce = NULL
             WHERE guild_id = ? AND seq = ? AND state = 'parked'`,
          )
          .run(at, guildId, seq).changes > 0,
    );
  }

  listPosted(page: { afterSeq: number; limit: number }): Promise<Array<PostedDelivery & { seq: number }>> {
    const rows = this.db
      .prepare(`SELECT ${POSTED_COLUMNS} FROM delivery WHERE state = 'posted' AND seq > ? ORDER BY seq LIMIT ?`)
      .all(page.afterSeq, page.limit) as PostedRow[];
    return Promise.resolve(rows.map(toPosted));
  }

  rememberPosted(deliveries: readonly PostedDelivery[]): Promise<number> {
    const insert = this.db.prepare(`
      INSERT INTO delivery (hook_id, delivery_id, guild_id, event, server, case_type, received_at, state, posted_at,
                            muted)
      VALUES (?, ?, ?, ?, ?, ?, ?, 'posted', ?, ?)
      ON CONFLICT (hook_id, delivery_id) DO NOTHING`);
    return this.writes.run(() => {
      let added = 0;
      for (const d of deliveries) {
        added += insert.run(
          d.hookId,
          d.deliveryId,
          d.guildId,
          d.event,
          d.server ?? null,
          d.caseType ?? null,
          d.receivedAt,
          d.postedAt,
          d.muted ? 1 : 0,
        ).changes;
      }
      return added;
    });
  }

  async sweepPosted(before: number): Promise<number> {
    let total = 0;
    for (;;) {
      const removed = await this.writes.run(
        () =>
          this.db
            .prepare(
              `DELETE FROM delivery WHERE seq IN
                 (SELECT seq FROM delivery WHERE state = 'posted' AND posted_at < ? LIMIT ${SWEEP_SLICE})`,
            )
            .run(before).changes,
      );
      total += removed;
      if (removed < SWEEP_SLICE) return total;
    }
  }

  dropParked(before: number, limit: number): Promise<DroppedHeld[]> {
    return this.writes.run(() => {
      const rows = this.db
        .prepare(
          `DELETE FROM delivery WHERE seq IN
             (SELECT seq FROM delivery WHERE state = 'parked' AND parked_at < ? ORDER BY parked_at LIMIT ?)
           RETURNING guild_id`,
        )
        .all(before, limit) as Array<{ guild_id: string }>;
      return countByGuild(rows);
    });
  }

  stateOf(hookId: string, deliveryId: string): Promise<DeliveryState | undefined> {
    const row = this.db
      .prepare('SELECT state FROM delivery WHERE hook_id = ? AND delivery_id = ?')
      .get(hookId, dedupeKeyOf(deliveryId)) as { state: DeliveryState } | undefined;
    return Promise.resolve(row?.state);
  }

  listOpen(): Promise<Array<QueuedEntry | ParkedEntry>> {
    const rows = this.db
      .prepare(`SELECT * FROM delivery WHERE state IN ('waiting', 'parked') ORDER BY seq`)
      .all() as DeliveryRow[];
    return Promise.resolve(rows.map(toOpenEntry));
  }

  countOpen(): Promise<number> {
    const row = this.db.prepare(`SELECT COUNT(*) AS n FROM delivery WHERE state IN ('waiting', 'parked')`).get() as {
      n: number;
    };
    return Promise.resolve(row.n);
  }

  /**
   * Routes the guild's movable entries again by `settings` (inside a settings change's transaction): one
   * statement per (event, server, case type), whatever the backlog; entries an `off` rule now covers are muted. The guild's broken channels are tried again. Announces the lanes that
   * have work afterwards.
   */
  reroute(tx: WriteContext, guildId: string, settings: GuildSettings): void {
    const now = this.clock();
    this.db
      .prepare(
        `UPDATE channel_state SET broken_status = NULL, broken_reason = NULL, broken_since = NULL, failures = 0,
           retry_at = NULL WHERE guild_id = ? AND broken_status IS NOT NULL`,
      )
      .run(guildId);
    // One statement per (event, server, case type) the guild has open: what the rules can tell apart.
    const groups = this.db
      .prepare(
        `SELECT DISTINCT event, server, case_type FROM delivery WHERE guild_id = ? AND state IN ('waiting', 'parked')`,
      )
      .all(guildId) as RoutingRow[];
    const move = this.db.prepare(
      `UPDATE delivery SET state = ?, channel_id = ?, park_kind = ?, park_detail = ?, parked_at = ?, posted_at = ?,
         muted = ?, raw_body = CASE WHEN ? THEN raw_body END
       WHERE guild_id = ? AND event = ? AND server IS ? AND case_type IS ? AND ${MOVABLE}`,
    );
    for (const group of groups) {
      // The guild's broken channels were cleared above: every route is tried again.
      const place = placementOf(resolveRoute(settings, routingKeysOf(group)), undefined, now);
      move.run(
        place.state,
        place.channelId,
        place.parkKind,
        place.parkDetail,
        place.parkedAt,
        place.postedAt,
        place.muted ? 1 : 0,
        place.keepsBody ? 1 : 0,
        guildId,
        group.event,
        group.server,
        group.case_type,
      );
    }
    const lanes = this.db
      .prepare(`SELECT DISTINCT channel_id FROM delivery WHERE guild_id = ? AND state = 'waiting'`)
      .all(guildId) as Array<{ channel_id: string }>;
    tx.afterCommit({ kind: 'settings-changed', guildId });
    for (const lane of lanes) tx.afterCommit({ kind: 'work', channelId: lane.channel_id, guildId, at: now });
  }

  /** What Discord said of the channel while it is marked broken; undefined while it is not (or for no channel). */
  private brokenReasonOf(channelId: string | undefined): string | undefined {
    if (channelId === undefined) return undefined;
    const row = this.brokenOf.get(channelId);
    return row && (row.broken_reason ?? '');
  }

  private readSettings(guildId: string): GuildSettings {
    const row = this.settingsOf.get(guildId);
    if (!row) return emptyGuildSettings(guildId);
    // Parsed once per stored text: the row is read on every accept (a few µs), the parse would cost more.
    let settings = this.parsedSettings.get(row.settings);
    if (!settings) {
      settings = GuildSettingsSchema.parse(JSON.parse(row.settings));
      this.parsedSettings.set(row.settings, settings);
    }
    return settings;
  }
}
