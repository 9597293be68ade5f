/**
 * The fake's gateway: uncompressed JSON over WebSocket, speaking just enough of Discord's protocol for
 * @discordjs/ws (HELLO, heartbeats, IDENTIFY -> READY + GUILD_CREATE, RESUME with replay, dispatches), sharded
 * as Discord shards: a session identifies as shard `[id, count]` and hears only of the guilds whose
 * `(guild_id >> 22) % count` is its id.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayOpcodes, type APIUser } from 'discord.js';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';

import {
  field,
  isPayload,
  rawText,
  readShard,
  readyPayload,
  shardOfGuild,
  type IdentifyRecord,
  type ResumeRecord,
  type SessionInfo,
  type Shard,
} from './gateway-protocol.js';
import { covers, GatewaySessions, type Session } from './gateway-sessions.js';
import type { GuildStore } from './guild-store.js';

export { shardOfGuild, type IdentifyRecord, type ResumeRecord, type SessionInfo, type Shard };

/** Options of {@link GatewayServer}. */
export interface GatewayOptions {
  readonly heartbeatIntervalMs: number;
  readonly bot: APIUser;
  readonly applicationId: string;
  readonly applicationFlags: number;
  readonly guilds: GuildStore;
  /**
   * The most guilds one shard may hold; a session that would hold more is closed with 4011 (Sharding required),
   * as Discord does past 2 500.
   */
  readonly maxGuildsPerShard: number;
  /** The ws:// URL clients should resume at. */
  readonly url: () => string;
  /** Called after anything a test might wait for (identify, resume, heartbeat, close). */
  readonly onChange: () => void;
}

/** Close codes a client uses to end its session for good (anything else leaves it resumable). */
const FINAL_CLIENT_CLOSE_CODES = new Set([1000, 1001]);

/** The gateway half of the fake. */
export class GatewayServer {
  readonly #wss = new WebSocketServer({ noServer: true });
  readonly #sessions = new GatewaySessions();
  readonly #sockets = new Set<WebSocket>();
  readonly #identifies: IdentifyRecord[] = [];
  readonly #resumes: ResumeRecord[] = [];
  /** Shards whose IDENTIFY and RESUME wait (see {@link holdShard}), with what waits. */
  readonly #held = new Map<number, Array<() => void>>();
  #heartbeats = 0;

  constructor(private readonly options: GatewayOptions) {}

  /** Hands an HTTP upgrade request (any path; discord.js adds `?v=10&encoding=json`) to the WebSocket server. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#wss.handleUpgrade(request, socket, head, (ws) => this.#accept(ws, request));
  }

  /** Every IDENTIFY received, oldest first. */
  get identifies(): readonly IdentifyRecord[] {
    return this.#identifies;
  }

  /** How many RESUMEs succeeded. */
  get resumes(): number {
    return this.#resumes.length;
  }

  /** Every RESUME that succeeded, oldest first, with its session's shard. */
  get resumeLog(): readonly ResumeRecord[] {
    return this.#resumes;
  }

  /** Every session that exists (connected or resumable), oldest first. */
  sessionList(): SessionInfo[] {
    return this.#sessions.list();
  }

  /** How many heartbeats clients sent (each answered with an ACK). */
  get heartbeats(): number {
    return this.#heartbeats;
  }

  /** Sessions whose socket is open and identified. */
  get connectedSessions(): number {
    return this.#sessions.connected;
  }

  /** Sessions that exist, connected or waiting to be resumed. */
  get sessions(): number {
    return this.#sessions.size;
  }

  /**
   * Sends a dispatch to every session of the shard it belongs to (buffered for replay when a session is
   * disconnected but resumable): the shard of its guild (`guild_id`, or `id` for GUILD_CREATE, GUILD_UPDATE and
   * GUILD_DELETE), or shard 0 for an event of no guild, as Discord routes them. Unsharded sessions (`[0, 1]`)
   * get everything. `intent`, when given, limits it to sessions that identified with that intent bit.
   *
   * @returns How many sessions it went to.
   */
  dispatch(event: string, data: unknown, intent?: number): number {
    return this.#sessions.dispatch(event, data, intent);
  }

  /** Sends GUILD_CREATE for a guild added while clients are connected. */
  announceGuild(guildId: string): void {
    this.dispatch(GatewayDispatchEvents.GuildCreate, this.options.guilds.guildCreatePayload(guildId));
  }

  /**
   * Sends GUILD_DELETE: the bot was removed from the guild, or, with `unavailable`, the guild is in an outage
   * (Discord then sends GUILD_CREATE again when it is back).
   */
  announceGuildGone(guildId: string, unavailable: boolean): void {
    this.dispatch(
      GatewayDispatchEvents.GuildDelete,
      unavailable ? { id: guildId, unavailable: true } : { id: guildId },
    );
  }

  /**
   * Closes every client socket with `code` (default 4000, "unknown error", after which discord.js resumes).
   * With `invalidateSessions`, sessions are forgotten too, so clients must identify again.
   */
  disconnectAll(code = 4000, invalidateSessions = false): void {
    this.#sessions.disconnectAll(code, invalidateSessions);
    for (const socket of this.#sockets) socket.close(code, 'Closed by the fake');
  }

  /**
   * Closes the socket of every session of shard `shardId` with `code` (default 4000, after which discord.js
   * resumes that shard), leaving the other shards connected. With `invalidateSessions`, the shard's sessions are
   * forgotten too, so it must identify again. With `code` 1006 the socket is dropped without a close frame, as a
   * network failure would.
   *
   * @returns How many sockets it closed.
   */
  disconnectShard(shardId: number, code = 4000, invalidateSessions = false): number {
    const closed = this.#sessions.disconnectShard(shardId, code, invalidateSessions);
    this.options.onChange();
    return closed;
  }

  /**
   * Keeps shard `shardId` from coming back: its IDENTIFYs and RESUMEs get no answer until
   * {@link releaseShard} (heartbeats are still acknowledged), as while Discord's gateway node for it restarts.
   */
  holdShard(shardId: number): void {
    if (!this.#held.has(shardId)) this.#held.set(shardId, []);
  }

  /** Answers the IDENTIFYs and RESUMEs {@link holdShard} kept waiting, in order, and stops holding the shard. */
  releaseShard(shardId: number): void {
    const waiting = this.#held.get(shardId) ?? [];
    this.#held.delete(shardId);
    for (const answer of waiting) answer();
  }

  /** Ends every connection at once and stops accepting new ones. */
  close(): Promise<void> {
    for (const socket of this.#sockets) socket.terminate();
    this.#sockets.clear();
    this.#sessions.clear();
    return new Promise((resolve) => this.#wss.close(() => resolve()));
  }

  #accept(ws: WebSocket, request: IncomingMessage): void {
    const query = new URL(request.url ?? '/', 'ws://fake').searchParams;
    this.#sockets.add(ws);
    let session: Session | undefined;

    ws.on('close', (code) => {
      this.#sockets.delete(ws);
      if (session && session.socket === ws) {
        session.socket = undefined;
        if (FINAL_CLIENT_CLOSE_CODES.has(code)) this.#sessions.delete(session.id);
      }
      this.options.onChange();
    });
    ws.on('error', () => ws.terminate());

    // The fake speaks JSON only; ETF needs a codec that nobody here uses.
    if ((query.get('encoding') ?? 'json') !== 'json') {
      ws.close(GatewayCloseCodes.DecodeError, 'Only JSON encoding is supported by the fake');
      return;
    }

    ws.on('message', (raw: RawData) => {
      let payload: unknown;
      try {
        payload = JSON.parse(rawText(raw));
      } catch {
        ws.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
        return;
      }
      if (!isPayload(payload)) {
        ws.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload.');
        return;
      }
      switch (payload.op) {
        case GatewayOpcodes.Heartbeat:
          ws.send(JSON.stringify({ op: GatewayOpcodes.HeartbeatAck }));
          this.#sessions.heard(ws);
          this.#heartbeats += 1;
          this.options.onChange();
          return;
        case GatewayOpcodes.Identify:
        case GatewayOpcodes.Resume: {
          if (session) {
            ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'You sent more than one identify payload.');
            return;
          }
          const data = payload.d;
          const start = payload.op === GatewayOpcodes.Identify;
          const answer = () => {
            if (ws.readyState !== ws.OPEN || session) return;
            session = start ? this.#identify(ws, data) : this.#resume(ws, data);
          };
          const waiting = this.#held.get(this.#shardAsked(start, data));
          if (waiting) waiting.push(answer);
          else answer();
          return;
        }
        case GatewayOpcodes.PresenceUpdate:
        case GatewayOpcodes.VoiceStateUpdate:
        case GatewayOpcodes.RequestGuildMembers:
          if (!session) ws.close(GatewayCloseCodes.NotAuthenticated, 'You sent a payload prior to identifying.');
          return;
        default:
          ws.close(GatewayCloseCodes.UnknownOpcode, 'Unknown opcode.');
      }
    });

    ws.send(JSON.stringify({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: this.options.heartbeatIntervalMs } }));
  }

  #identify(ws: WebSocket, data: unknown): Session | undefined {
    const token = field(data, 'token');
    if (typeof token !== 'string' || token.length === 0) {
      ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed.');
      return undefined;
    }
    const shard = readShard(field(data, 'shard'));
    if (!shard) {
      ws.close(GatewayCloseCodes.InvalidShard, 'Invalid shard.');
      return undefined;
    }
    // Discord's documentation names no code for a second session of a shard that is live; the fake refuses it
    // with 4005 (more than one identify), after which discord.js connects again: a new owner whose predecessor's
    // socket is still closing gets in at its next try. A session silent for two heartbeat intervals is not live.
    // Unsharded sessions may be several, as before.
    const live = shard[1] > 1 ? this.#sessions.liveSessionOf(shard) : undefined;
    if (live && this.#sessions.silentFor(live) > 2 * this.options.heartbeatIntervalMs) {
      // A zombie (its process paused or cut off): Discord would have closed it for missing heartbeats by now.
      live.socket?.terminate();
      live.socket = undefined;
    } else if (live) {
      ws.close(GatewayCloseCodes.AlreadyAuthenticated, `Shard [${shard.join(', ')}] already has a live session.`);
      return undefined;
    }
    const guildIds = this.options.guilds.guildIds().filter((id) => covers(shard, id));
    if (guildIds.length > this.options.maxGuildsPerShard) {
      ws.close(GatewayCloseCodes.ShardingRequired, 'Sharding required.');
      return undefined;
    }
    const intents = Number(field(data, 'intents') ?? 0);
    const session: Session = { id: randomUUID().replaceAll('-', ''), intents, shard, seq: 0, socket: ws, sent: [] };
    this.#sessions.heard(ws);
    this.#sessions.add(session);
    this.#identifies.push({ sessionId: session.id, token, intents, shard: field(data, 'shard'), time: Date.now() });

    // Discord lists guilds as unavailable in READY, then streams one GUILD_CREATE each; discord.js waits for
    // all of them before it emits clientReady.
    this.#sessions.send(
      session,
      GatewayDispatchEvents.Ready,
      readyPayload({ ...this.options, sessionId: session.id, guildIds, shard, resumeUrl: this.options.url() }),
    );
    for (const guildId of guildIds) {
      this.#sessions.send(session, GatewayDispatchEvents.GuildCreate, this.options.guilds.guildCreatePayload(guildId));
    }
    this.options.onChange();
    return session;
  }

  #resume(ws: WebSocket, data: unknown): Session | undefined {
    const session = this.#sessions.get(String(field(data, 'session_id')));
    const seq = Number(field(data, 'seq') ?? 0);
    if (!session || typeof field(data, 'token') !== 'string') {
      // d: false tells the client to identify afresh.
      ws.send(JSON.stringify({ op: GatewayOpcodes.InvalidSession, d: false }));
      return undefined;
    }
    if (session.socket && session.socket !== ws) session.socket.terminate();
    session.socket = ws;
    this.#sessions.heard(ws);
    this.#sessions.replay(session, ws, seq);
    this.#sessions.send(session, GatewayDispatchEvents.Resumed, { _trace: ['fake-discord-gateway'] });
    this.#resumes.push({ sessionId: session.id, shard: session.shard, time: Date.now() });
    this.options.onChange();
    return session;
  }

  /** The shard id an IDENTIFY or RESUME is for (-1 when it names none the fake knows). */
  #shardAsked(identify: boolean, data: unknown): number {
    if (identify) return readShard(field(data, 'shard'))?.[0] ?? -1;
    return this.#sessions.get(String(field(data, 'session_id')))?.shard[0] ?? -1;
  }
}
