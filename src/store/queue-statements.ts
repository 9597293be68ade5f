import type { EntryCounts } from './delivery-intake.js';
import {
  CHANNEL,
  HELD,
  OPEN,
  POSTED,
  QUEUED,
  ROUTING,
  type Count,
  type HeldCount,
  type LaneRow,
  type MutedCount,
} from './delivery-rows.js';
import type { Placement } from './placement.js';
import type { SqlDialect } from './sql-dialect.js';
import { columns, type RowOf } from './table-columns.js';

/** Entries a settings change may move: waiting and not written down, or held for want of a usable channel. */
const MOVABLE = `((state = 'waiting' AND claim_nonce IS NULL) OR (state = 'parked' AND park_kind IN ('unrouted', 'broken')))`;

/** Deletes of expired posted deliveries go in slices, so a big sweep never holds locks (or the writer) for long. */
export const SWEEP_SLICE = 5_000;

/** Single columns statements read (the lists converters read are beside them, in delivery-rows.ts). */
const MESSAGE = columns('written_message', 'message');
const FAILURES = columns('channel_state', 'failures');
const RETRY_AT = columns('channel_state', 'retry_at');
const PLACE = columns('delivery', 'park_kind', 'channel_id');
const STATE = columns('delivery', 'state');
const GUILD = columns('delivery', 'guild_id');
const LANE = columns('delivery', 'channel_id');

/**
 * What a discarded delivery keeps of its body: nothing, once the community record's writer has read it. One posted
 * keeps it for the replay window (`sweepBodies` drops it after), so /feed replay can post it again elsewhere.
 */
const BODY_UNTIL_RECORDED = 'CASE WHEN unrecorded IS NOT NULL THEN raw_body END';

/** The placement columns (placement.ts) a statement sets, in the order Placement lists them. */
const PLACED = `state = ?, channel_id = ?, park_kind = ?, park_detail = ?, parked_at = ?, posted_at = ?, muted = ?,
  raw_body = CASE WHEN ? OR unrecorded IS NOT NULL THEN raw_body END`;

/**
 * The delivery queue's statements, written once for both engines in the dialect `d` (sql-dialect.ts). Each
 * engine makes them once, at startup. The engines differ in how they run them (SQLite's single writer, group
 * committed; PostgreSQL's pool and its guild locks), not in what they say.
 */
export function queueStatements(d: SqlDialect) {
  const claimed = d.indexedBy('delivery_claimed');
  return {
    // The feed's lanes.
    channelsWithWork: d.sql<LaneRow, []>(
      `SELECT lane.channel_id, lane.guild_id, channel_state.retry_at FROM
         (SELECT channel_id, min(guild_id) AS guild_id FROM delivery
          WHERE state = 'waiting' AND channel_id IS NOT NULL GROUP BY channel_id) AS lane
       LEFT JOIN channel_state ON channel_state.channel_id = lane.channel_id`,
    ),
    waitingHead: d
      .select(QUEUED)
      .from<[string, number]>(`delivery WHERE channel_id = ? AND state = 'waiting' ORDER BY seq LIMIT ?`),
    // A written-down message is found through its nonce, never by reading the rest of its lane.
    writtenEntries: d
      .select(QUEUED)
      .from<[string, string]>(
        `delivery${claimed} WHERE claim_nonce = ? AND channel_id = ? AND state = 'waiting' ORDER BY seq`,
      ),
    unwrittenEntries: d
      .select(QUEUED)
      .from<[string, number]>(
        `delivery WHERE channel_id = ? AND state = 'waiting' AND claim_nonce IS NULL ORDER BY seq LIMIT ?`,
      ),
    writeDown: d.sql(
      `UPDATE delivery SET claim_nonce = ?
       WHERE channel_id = ? AND state = 'waiting' AND claim_nonce IS NULL AND ${d.inList('seq')}`,
    ),
    unwrite: d.sql<never, [string, string]>(
      `UPDATE delivery${claimed} SET claim_nonce = NULL WHERE claim_nonce = ? AND channel_id = ? AND state = 'waiting'`,
    ),
    saveMessage: d.sql<never, [string, string, string]>(
      `INSERT INTO written_message (channel_id, nonce, message) VALUES (?, ?, ?)
       ON CONFLICT (channel_id) DO UPDATE SET nonce = excluded.nonce, message = excluded.message`,
    ),
    writtenMessage: d.select(MESSAGE).from<[string, string]>('written_message WHERE channel_id = ? AND nonce = ?'),
    forgetMessage: d.sql<never, [string, string]>('DELETE FROM written_message WHERE channel_id = ? AND nonce = ?'),
    markPosted: d.sql<never, [number, string, string]>(
      `UPDATE delivery${claimed} SET state = 'posted', posted_at = ?, claim_nonce = NULL
       WHERE claim_nonce = ? AND channel_id = ? AND state = 'waiting'`,
    ),
    clearFailures: d.sql<never, [string]>(
      'UPDATE channel_state SET failures = 0, retry_at = NULL WHERE channel_id = ?',
    ),
    noteFailure: d.sql<RowOf<typeof FAILURES>, [string, string, number]>(
      `INSERT INTO channel_state (channel_id, guild_id, failures, retry_at) VALUES (?, ?, 1, ?)
       ON CONFLICT (channel_id) DO UPDATE SET failures = channel_state.failures + 1, retry_at = excluded.retry_at
       RETURNING ${FAILURES.text}`,
    ),
    holdRefused: d.sql(
      `UPDATE delivery SET state = 'parked', park_kind = 'refused', park_detail = ?, parked_at = ?, claim_nonce = NULL
       WHERE state = 'waiting' AND ${d.inList('seq')}`,
    ),
    markBroken: d.sql<never, [string, string, number, string, number]>(
      `INSERT INTO channel_state (channel_id, guild_id, broken_status, broken_reason, broken_since) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (channel_id) DO UPDATE SET broken_status = excluded.broken_status,
         broken_reason = excluded.broken_reason, broken_since = excluded.broken_since, failures = 0, retry_at = NULL`,
    ),
    holdBrokenLane: d.sql<never, [string, number, string]>(
      `UPDATE delivery SET state = 'parked', park_kind = 'broken', park_detail = ?, parked_at = ?, claim_nonce = NULL
       WHERE channel_id = ? AND state = 'waiting'`,
    ),
    retryAtOf: d.select(RETRY_AT).from<[string]>('channel_state WHERE channel_id = ?'),

    // Admins' view: /status and held entries.
    countWaiting: d.sql<Count, [string]>(`SELECT count(*) AS n FROM delivery WHERE guild_id = ? AND state = 'waiting'`),
    countHeld: d.sql<HeldCount, [string]>(
      `SELECT park_kind, event, count(*) AS n FROM delivery WHERE guild_id = ? AND state = 'parked'
       GROUP BY park_kind, event`,
    ),
    countMuted: d.sql<MutedCount, [string]>(
      `SELECT event, count(*) AS n FROM delivery WHERE guild_id = ? AND ${d.isTrue('muted')} GROUP BY event`,
    ),
    channelStates: d.select(CHANNEL).from<[string]>('channel_state WHERE guild_id = ? ORDER BY channel_id'),
    listHeld: d
      .select(HELD)
      .from<[string, number, number]>(`delivery WHERE guild_id = ? AND state = 'parked' ORDER BY seq LIMIT ? OFFSET ?`),
    heldOne: d.select(HELD).from<[string, number]>(`delivery WHERE guild_id = ? AND seq = ? AND state = 'parked'`),
    heldPlace: d
      .select(PLACE)
      .from<[string, number]>(`delivery WHERE guild_id = ? AND seq = ? AND state = 'parked'${d.forUpdate}`),
    requeueBrokenLane: d.sql<never, [string, string]>(
      `UPDATE delivery SET state = 'waiting', channel_id = ?, park_kind = NULL, park_detail = NULL, parked_at = NULL,
         claim_nonce = NULL WHERE channel_id = ? AND state = 'parked' AND park_kind = 'broken'`,
    ),
    requeueOne: d.sql<never, [string, number]>(
      `UPDATE delivery SET state = 'waiting', channel_id = ?, park_kind = NULL, park_detail = NULL, parked_at = NULL,
         claim_nonce = NULL WHERE seq = ?`,
    ),
    clearBroken: d.sql<never, [string]>(
      'UPDATE channel_state SET broken_status = NULL, broken_reason = NULL, broken_since = NULL WHERE channel_id = ?',
    ),
    discardHeld: d.sql<never, [number, string, number]>(
      `UPDATE delivery SET state = 'posted', posted_at = ?, raw_body = ${BODY_UNTIL_RECORDED}, claim_nonce = NULL
       WHERE guild_id = ? AND seq = ? AND state = 'parked'`,
    ),

    // The intake, migrate-store and the retention sweep.
    brokenReason: d.sql<{ reason: string }, [string]>(
      `SELECT COALESCE(broken_reason, '') AS reason FROM channel_state WHERE channel_id = ? AND broken_status IS NOT NULL`,
    ),
    stateOf: d.select(STATE).from<[string, string]>('delivery WHERE hook_id = ? AND delivery_id = ?'),
    countOpen: d.sql<Count, []>(`SELECT count(*) AS n FROM delivery WHERE state IN ('waiting', 'parked')`),
    // Each count reads an index of its own (the state's, the muted deliveries' partial one), never the table.
    countByState: d.sql<EntryCounts, []>(
      `SELECT (SELECT count(*) FROM delivery WHERE state = 'waiting') AS waiting,
              (SELECT count(*) FROM delivery WHERE state = 'parked') AS held,
              (SELECT count(*) FROM delivery WHERE ${d.isTrue('muted')}) AS muted`,
    ),
    // The first waiting entry by seq (commit order): its seq from the waiting entries' index, then its one row.
    oldestWaiting: d.sql<{ at: number }, []>(
      `SELECT received_at AS at FROM delivery WHERE seq = (SELECT min(seq) FROM delivery WHERE state = 'waiting')`,
    ),
    listOpen: d.select(OPEN).from<[]>(`delivery WHERE state IN ('waiting', 'parked') ORDER BY seq`),
    listPosted: d
      .select(POSTED)
      .from<[number, number]>(`delivery WHERE state = 'posted' AND seq > ? ORDER BY seq LIMIT ?`),
    sweepPosted: d.sql<never, [number]>(
      // A delivery the community record's writer has not read yet stays until it has (migrations/0007-unrecorded-mark.ts).
      `DELETE FROM delivery WHERE seq IN
         (SELECT seq FROM delivery WHERE state = 'posted' AND posted_at < ? AND unrecorded IS NULL
          LIMIT ${SWEEP_SLICE})`,
    ),
    // The replay window is over: a posted (or muted) delivery's body goes, its row (the key that dedupes the
    // service's retries) stays until sweepPosted. Read by the posted deliveries' index, up to the cutoff only.
    sweepBodies: d.sql<never, [number]>(
      `UPDATE delivery SET raw_body = NULL WHERE seq IN
         (SELECT seq FROM delivery WHERE state = 'posted' AND posted_at < ? AND raw_body IS NOT NULL
            AND unrecorded IS NULL LIMIT ${SWEEP_SLICE})`,
    ),
    dropHeld: d.sql<RowOf<typeof GUILD>, [number, number]>(
      `DELETE FROM delivery WHERE seq IN
         (SELECT seq FROM delivery WHERE state = 'parked' AND parked_at < ? AND unrecorded IS NULL
          ORDER BY parked_at LIMIT ?)
       RETURNING ${GUILD.text}`,
    ),

    // SQLite's accept (PostgreSQL's is bridge_accept_placed, a function of its schema): stored where it was placed.
    insertPlaced: d.sql(
      `INSERT INTO delivery (state, channel_id, park_kind, park_detail, parked_at, posted_at, muted, raw_body,
                             hook_id, delivery_id, guild_id, event, server, case_type, received_at, unrecorded)
       VALUES (?, ?, ?, ?, ?, ?, ?, CASE WHEN ? THEN ? END, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (hook_id, delivery_id) DO NOTHING`,
    ),

    // A settings change's re-route (placement.ts decides where each group goes).
    clearGuildBroken: d.sql<never, [string]>(
      `UPDATE channel_state SET broken_status = NULL, broken_reason = NULL, broken_since = NULL, failures = 0,
         retry_at = NULL WHERE guild_id = ? AND broken_status IS NOT NULL`,
    ),
    // One statement per (event, server, case type) the guild has open: what the rules can tell apart.
    openGroups: d.sql<RowOf<typeof ROUTING>, [string]>(
      `SELECT DISTINCT ${ROUTING.text} FROM delivery WHERE guild_id = ? AND state IN ('waiting', 'parked')`,
    ),
    placeGroup: d.sql(
      `UPDATE delivery SET ${PLACED}
       WHERE guild_id = ? AND event = ? AND server IS NOT DISTINCT FROM ? AND case_type IS NOT DISTINCT FROM ?
         AND ${MOVABLE}`,
    ),
    guildLanes: d.sql<RowOf<typeof LANE>, [string]>(
      `SELECT DISTINCT ${LANE.text} FROM delivery WHERE guild_id = ? AND state = 'waiting'`,
    ),
  };
}

export type QueueStatements = ReturnType<typeof queueStatements>;

/**
 * The values a statement binds for a placement (placeGroup, insertPlaced), in the order Placement lists them.
 * `keepsBody` overrides the placement's where the community record's writer still has to read the body.
 */
export function placedValues(d: SqlDialect, place: Placement, keepsBody = place.keepsBody): unknown[] {
  return [
    place.state,
    place.channelId,
    place.parkKind,
    place.parkDetail,
    place.parkedAt,
    place.postedAt,
    d.bool(place.muted),
    d.bool(keepsBody),
  ];
}
