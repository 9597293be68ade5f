import type {
  ChannelWithWork,
  DroppedHeld,
  GuildFeedStatus,
  HeldEntry,
  NewDelivery,
  PostedDelivery,
  QueuedEntry,
} from './deliveries.js';
import { columns, type Columns, type RowOf } from './table-columns.js';
import type { ChannelStateTable, DeliveryTable } from './tables.js';

/** The columns every stored delivery is read with, whatever its state: what {@link storedFieldsOf} reads. */
const STORED = ['seq', 'hook_id', 'delivery_id', 'guild_id', 'event', 'server', 'case_type', 'received_at'] as const;

/** What a lane reads of a waiting entry: {@link toQueued}'s columns. */
export const QUEUED = columns('delivery', ...STORED, 'raw_body', 'channel_id', 'claim_nonce');

/** What /feed held reads of a held entry: {@link toHeld}'s columns. */
export const HELD = columns('delivery', ...STORED, 'raw_body', 'channel_id', 'park_kind', 'park_detail', 'parked_at');

/** An open entry, waiting or held, as migrate-store reads it: {@link toOpenEntry}'s columns. */
export const OPEN = columns(
  'delivery',
  ...STORED,
  'state',
  'raw_body',
  'channel_id',
  'claim_nonce',
  'park_kind',
  'park_detail',
  'parked_at',
);

/** A posted entry as migrate-store reads it: {@link toPosted}'s columns. */
export const POSTED = columns('delivery', ...STORED, 'posted_at', 'muted');

/** What routing reads of a stored delivery (re-routing reads it per distinct group). */
export const ROUTING = columns('delivery', 'event', 'server', 'case_type');

/** A channel's state as /status reads it: {@link toFeedStatus}'s columns. */
export const CHANNEL = columns(
  'channel_state',
  'channel_id',
  'guild_id',
  'failures',
  'retry_at',
  'broken_status',
  'broken_reason',
  'broken_since',
);

export function toPosted(row: RowOf<typeof POSTED>): PostedDelivery & { seq: number } {
  // A posted row always has its time (set with its state); the arrival stands in, as for a held row's.
  return { ...storedFieldsOf(row), postedAt: row.posted_at ?? row.received_at, muted: Boolean(row.muted) };
}

/** The routing keys a row was stored with (server and case type absent on rows stored before rules named them). */
export function routingKeysOf(row: RowOf<typeof ROUTING>): Pick<NewDelivery, 'event' | 'server' | 'caseType'> {
  return {
    event: row.event,
    ...(row.server !== null ? { server: row.server } : {}),
    ...(row.case_type !== null ? { caseType: row.case_type } : {}),
  };
}

type StoredRow = RowOf<Columns<'delivery', (typeof STORED)[number]>>;

/** What every stored delivery is, whatever its state: its ids, routing keys, arrival and order. */
function storedFieldsOf(row: StoredRow): Omit<NewDelivery, 'rawBody'> & { seq: number } {
  return {
    ...routingKeysOf(row),
    seq: row.seq,
    hookId: row.hook_id,
    guildId: row.guild_id,
    deliveryId: row.delivery_id,
    receivedAt: row.received_at,
  };
}

export function toQueued(row: RowOf<typeof QUEUED>): QueuedEntry {
  return {
    ...storedFieldsOf(row),
    rawBody: row.raw_body ?? '',
    channelId: row.channel_id ?? '',
    writtenNonce: row.claim_nonce,
  };
}

export function toHeld(row: RowOf<typeof HELD>): HeldEntry {
  return {
    ...storedFieldsOf(row),
    rawBody: row.raw_body ?? '',
    channelId: row.channel_id,
    kind: row.park_kind ?? 'unrouted',
    detail: row.park_detail ?? '',
    parkedAt: row.parked_at ?? row.received_at,
  };
}

/** A waiting row as a lane entry, a held one with its reason. */
export function toOpenEntry(row: RowOf<typeof OPEN>): QueuedEntry | HeldEntry {
  return row.state === 'waiting' ? toQueued(row) : toHeld(row);
}

/** The guilds of the rows a statement deleted, counted, by guild id (RETURNING promises no order). */
export function countByGuild(rows: ReadonlyArray<Pick<DeliveryTable, 'guild_id'>>): DroppedHeld[] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.guild_id, (counts.get(row.guild_id) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([guildId, count]) => ({ guildId, count }));
}

/** A count (`count(*) AS n`): a number in both engines (PostgreSQL's bigint is read as one, open-postgres-store). */
export interface Count {
  n: number;
}

/** Held entries counted per kind and event. */
export type HeldCount = Pick<DeliveryTable, 'park_kind' | 'event'> & Count;

/** Muted entries counted per event. */
export type MutedCount = Pick<DeliveryTable, 'event'> & Count;

/** /status's view of a guild, from its waiting count, its held and muted counts and its channels' states. */
export function toFeedStatus(
  waiting: number,
  held: readonly HeldCount[],
  muted: readonly MutedCount[],
  channels: ReadonlyArray<RowOf<typeof CHANNEL>>,
): GuildFeedStatus {
  const status: GuildFeedStatus = {
    waiting,
    unrouted: {},
    muted: Object.fromEntries(muted.map((row) => [row.event, row.n])),
    heldBroken: 0,
    heldRefused: 0,
    broken: [],
    retrying: [],
  };
  for (const row of held) {
    if (row.park_kind === 'unrouted') status.unrouted[row.event] = row.n;
    else if (row.park_kind === 'broken') status.heldBroken += row.n;
    else status.heldRefused += row.n;
  }
  for (const row of channels) {
    if (row.broken_status !== null) {
      status.broken.push({
        channelId: row.channel_id,
        guildId: row.guild_id,
        status: row.broken_status,
        reason: row.broken_reason ?? '',
        since: row.broken_since ?? 0,
      });
    } else if (row.failures > 0 && row.retry_at !== null) {
      status.retrying.push({
        channelId: row.channel_id,
        guildId: row.guild_id,
        failures: row.failures,
        nextTryAt: row.retry_at,
      });
    }
  }
  return status;
}

/**
 * A channel with waiting entries and its stored retry time, as channelsWithWork reads it: named, not selected,
 * because the lane's columns come from a subquery of `delivery` joined to the channel's state.
 */
export type LaneRow = Pick<ChannelStateTable, 'channel_id' | 'guild_id' | 'retry_at'>;

export function toChannelWithWork(row: LaneRow): ChannelWithWork {
  const lane: ChannelWithWork = { channelId: row.channel_id, guildId: row.guild_id };
  if (row.retry_at !== null) lane.retryAt = row.retry_at;
  return lane;
}
