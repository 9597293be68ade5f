/**
 * What the fake's gateway reads and tells (gateway.ts): the frames' payloads, the shard a guild or a dispatch
 * belongs to, and the records of identifies, resumes and sessions tests look at.
 */
import { GatewayDispatchEvents, type APIUser, type GatewayOpcodes } from 'discord.js';
import type { RawData } from 'ws';

/** What a client sent in IDENTIFY, for tests that check the bot's intents and shards. */
export interface IdentifyRecord {
  readonly sessionId: string;
  readonly token: string;
  readonly intents: number;
  /** The `shard` field as sent (absent: the client did not shard, which Discord takes as `[0, 1]`). */
  readonly shard: unknown;
  readonly time: number;
}

/** A RESUME the gateway accepted, for tests that check a dropped shard resumed instead of identifying again. */
export interface ResumeRecord {
  readonly sessionId: string;
  /** The session's shard, `[id, count]`. */
  readonly shard: Shard;
  readonly time: number;
}

/** A shard as Discord names it: `[shard_id, num_shards]`. */
export type Shard = readonly [id: number, count: number];

/** One gateway session, as a test sees it. */
export interface SessionInfo {
  readonly sessionId: string;
  readonly shard: Shard;
  /** Whether a socket is open on it now (false: dropped, waiting to be resumed). */
  readonly connected: boolean;
  /** The sequence number of its last dispatch. */
  readonly seq: number;
}

/** The shard of a guild among `count` shards, as Discord computes it: `(guild_id >> 22) % count`. */
export function shardOfGuild(guildId: string, count: number): number {
  if (count === 1) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(count));
}

export interface GatewayPayload {
  readonly op: GatewayOpcodes;
  readonly d?: unknown;
}

export function isPayload(value: unknown): value is GatewayPayload {
  return typeof value === 'object' && value !== null && typeof (value as { op?: unknown }).op === 'number';
}

/** A frame's text, whichever of its three shapes ws delivered it in. */
export function rawText(raw: RawData): string {
  if (Array.isArray(raw)) return Buffer.concat(raw).toString('utf8');
  return (Buffer.isBuffer(raw) ? raw : Buffer.from(raw)).toString('utf8');
}

export function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

/** IDENTIFY's `shard`, when well formed: absent is `[0, 1]`, as Discord takes it. */
export function readShard(value: unknown): Shard | undefined {
  if (value === undefined || value === null) return [0, 1];
  if (!Array.isArray(value) || value.length !== 2) return undefined;
  const [id, count] = value as unknown[];
  if (!Number.isInteger(id) || !Number.isInteger(count)) return undefined;
  const [shardId, shardCount] = [id as number, count as number];
  return shardCount >= 1 && shardId >= 0 && shardId < shardCount ? [shardId, shardCount] : undefined;
}

/** Events about a guild itself carry its id as `id`; every other guild event as `guild_id`. */
const GUILD_OBJECT_EVENTS = new Set<string>([
  GatewayDispatchEvents.GuildCreate,
  GatewayDispatchEvents.GuildUpdate,
  GatewayDispatchEvents.GuildDelete,
]);

/** The guild a dispatch is about, which decides its shard; undefined for events of no guild (shard 0's). */
export function guildOfDispatch(event: string, data: unknown): string | undefined {
  const id = GUILD_OBJECT_EVENTS.has(event) ? field(data, 'id') : field(data, 'guild_id');
  return typeof id === 'string' ? id : undefined;
}

/** READY as Discord sends it to a new session: its guilds listed unavailable, each told by a GUILD_CREATE after. */
export function readyPayload(ready: {
  bot: APIUser;
  sessionId: string;
  guildIds: readonly string[];
  resumeUrl: string;
  shard: Shard;
  applicationId: string;
  applicationFlags: number;
}): unknown {
  return {
    v: 10,
    user: { ...ready.bot, verified: true, mfa_enabled: false, email: null },
    guilds: ready.guildIds.map((id) => ({ id, unavailable: true })),
    session_id: ready.sessionId,
    session_type: 'normal',
    resume_gateway_url: ready.resumeUrl,
    shard: ready.shard,
    application: { id: ready.applicationId, flags: ready.applicationFlags },
    private_channels: [],
    presences: [],
    relationships: [],
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    user_settings: {},
    _trace: ['["fake-discord-gateway",{"micros":0}]'],
  };
}
