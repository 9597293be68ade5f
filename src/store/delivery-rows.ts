import type {
  ChannelWithWork,
  DeliveryState,
  DroppedHeld,
  GuildFeedStatus,
  HeldEntry,
  HeldKind,
  NewDelivery,
  PostedDelivery,
  QueuedEntry,
} from './deliveries.js';

/** A `delivery` row as both engines store it (same columns, same meaning). */
export interface DeliveryRow {
  seq: number;
  hook_id: string;
  delivery_id: string;
  guild_id: string;
  event: string;
  server: string | null;
  case_type: string | null;
  received_at: number;
  raw_body: string | null;
  state: DeliveryState;
  channel_id: string | null;
  claim_nonce: string | null;
  park_kind: HeldKind | null;
  park_detail: string | null;
  parked_at: number | null;
}

/** A posted row as listPosted reads it (`muted` is 0/1 in SQLite, a boolean in PostgreSQL). */
export type PostedRow = StoredRow & { posted_at: number; muted: boolean | number };

export function toPosted(row: PostedRow): PostedDelivery & { seq: number } {
  return { ...storedFieldsOf(row), postedAt: row.posted_at, muted: Boolean(row.muted) };
}

/** A `channel_state` row. */
export interface ChannelRow {
  channel_id: string;
  guild_id: string;
  failures: number;
  retry_at: number | null;
  broken_status: number | null;
  broken_reason: string | null;
  broken_since: number | null;
}

/** What routing reads of a stored delivery (re-routing reads it per distinct group). */
export type RoutingRow = Pick<DeliveryRow, 'event' | 'server' | 'case_type'>;

/** The routing keys a row was stored with (server and case type absent on rows stored before rules named them). */
export function routingKeysOf(row: RoutingRow): Pick<NewDelivery, 'event' | 'server' | 'caseType'> {
  return {
    event: row.event,
    ...(row.server !== null ? { server: row.server } : {}),
    ...(row.case_type !== null ? { caseType: row.case_type } : {}),
  };
}

/** The columns every stored delivery has, whatever its state. */
type StoredRow = Pick<
  DeliveryRow,
  'seq' | 'hook_id' | 'delivery_id' | 'guild_id' | 'event' | 'server' | 'case_type' | 'received_at'
>;

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

export function toQueued(row: DeliveryRow): QueuedEntry {
  return {
    ...storedFieldsOf(row),
    rawBody: row.raw_body ?? '',
    channelId: row.channel_id ?? '',
    writtenNonce: row.claim_nonce,
  };
}

export function toHeld(row: DeliveryRow): HeldEntry {
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
export function toOpenEntry(row: DeliveryRow): QueuedEntry | HeldEntry {
  return row.state === 'waiting' ? toQueued(row) : toHeld(row);
}

/** The guilds of the rows a statement deleted, counted, by guild id (RETURNING promises no order). */
export function countByGuild(rows: ReadonlyArray<{ guild_id: string }>): DroppedHeld[] {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.guild_id, (counts.get(row.guild_id) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([guildId, count]) => ({ guildId, count }));
}

/** Held entries counted per kind and event. */
export interface HeldCount {
  park_kind: HeldKind;
  event: string;
  n: number;
}

/** Muted entries counted per event. */
export interface MutedCount {
  event: string;
  n: number;
}

/** /status's view of a guild, from its waiting count, its held and muted counts and its channels' states. */
export function toFeedStatus(
  waiting: number,
  held: readonly HeldCount[],
  muted: readonly MutedCount[],
  channels: readonly ChannelRow[],
): GuildFeedStatus {
  const status: GuildFeedStatus = {
    waiting,
    unrouted: {},
    muted: Object.fromEntries(muted.map((row) => [row.event, Number(row.n)])),
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

/** A channel with waiting entries and its stored retry time, as channelsWithWork reads it. */
export interface LaneRow {
  channel_id: string;
  guild_id: string;
  retry_at: number | null;
}

export function toChannelWithWork(row: LaneRow): ChannelWithWork {
  const lane: ChannelWithWork = { channelId: row.channel_id, guildId: row.guild_id };
  if (row.retry_at !== null) lane.retryAt = row.retry_at;
  return lane;
}
