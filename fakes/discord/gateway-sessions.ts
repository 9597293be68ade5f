/**
 * The fake gateway's sessions (gateway.ts runs the sockets and the handshake): which exist, which shard each is
 * of, what each was sent (for a RESUME's replay), and where a dispatch goes, as Discord routes dispatches to the
 * shard of their guild.
 */
import { GatewayOpcodes } from 'discord.js';
import type { WebSocket } from 'ws';

import { guildOfDispatch, shardOfGuild, type SessionInfo, type Shard } from './gateway-protocol.js';

interface Dispatch {
  readonly op: GatewayOpcodes.Dispatch;
  readonly t: string;
  readonly s: number;
  readonly d: unknown;
}

export interface Session {
  readonly id: string;
  readonly intents: number;
  readonly shard: Shard;
  seq: number;
  socket: WebSocket | undefined;
  /** Every dispatch of the session, so a RESUME can replay what the client missed. */
  readonly sent: Dispatch[];
}

/** How many dispatches a session keeps for replay; tests never come close. */
const REPLAY_LIMIT = 5_000;

/** Whether a session of `shard` hears of `guildId` (undefined: an event of no guild, which shard 0 gets). */
export function covers(shard: Shard, guildId: string | undefined): boolean {
  return guildId === undefined ? shard[0] === 0 : shardOfGuild(guildId, shard[1]) === shard[0];
}

export class GatewaySessions {
  readonly #sessions = new Map<string, Session>();
  /** When each socket last heartbeated (or identified): a shard's session silent for long is not live. */
  readonly #lastHeard = new WeakMap<WebSocket, number>();

  get(sessionId: string): Session | undefined {
    return this.#sessions.get(sessionId);
  }

  add(session: Session): void {
    this.#sessions.set(session.id, session);
  }

  delete(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  clear(): void {
    this.#sessions.clear();
  }

  /** Sessions that exist, connected or waiting to be resumed. */
  get size(): number {
    return this.#sessions.size;
  }

  /** Sessions whose socket is open and identified. */
  get connected(): number {
    return [...this.#sessions.values()].filter((s) => s.socket !== undefined).length;
  }

  /** Every session that exists (connected or resumable), oldest first. */
  list(): SessionInfo[] {
    return [...this.#sessions.values()].map((session) => ({
      sessionId: session.id,
      shard: session.shard,
      connected: session.socket !== undefined,
      seq: session.seq,
    }));
  }

  /** The socket was heard from now (a heartbeat, an identify, a resume). */
  heard(socket: WebSocket): void {
    this.#lastHeard.set(socket, Date.now());
  }

  /** How long since a session's socket last heartbeated or identified. */
  silentFor(session: Session): number {
    const heard = session.socket ? this.#lastHeard.get(session.socket) : undefined;
    return heard === undefined ? 0 : Date.now() - heard;
  }

  /** The session of `shard` with a socket open, if any. */
  liveSessionOf(shard: Shard): Session | undefined {
    for (const session of this.#sessions.values()) {
      if (session.socket && session.shard[0] === shard[0] && session.shard[1] === shard[1]) return session;
    }
    return undefined;
  }

  /** See GatewayServer.dispatch. @returns How many sessions it went to. */
  dispatch(event: string, data: unknown, intent?: number): number {
    const guildId = guildOfDispatch(event, data);
    let reached = 0;
    for (const session of this.#sessions.values()) {
      if (intent !== undefined && (session.intents & intent) === 0) continue;
      if (!covers(session.shard, guildId)) continue;
      this.send(session, event, data);
      reached += 1;
    }
    return reached;
  }

  /** Sends one dispatch on a session (kept for replay; sent now if its socket is open). */
  send(session: Session, event: string, data: unknown): void {
    session.seq += 1;
    const dispatch: Dispatch = { op: GatewayOpcodes.Dispatch, t: event, s: session.seq, d: data };
    session.sent.push(dispatch);
    if (session.sent.length > REPLAY_LIMIT) session.sent.shift();
    const socket = session.socket;
    if (socket && socket.readyState === socket.OPEN) socket.send(JSON.stringify(dispatch));
  }

  /** Sends a resumed session what it missed after `seq`. */
  replay(session: Session, socket: WebSocket, seq: number): void {
    for (const dispatch of session.sent) {
      if (dispatch.s > seq) socket.send(JSON.stringify(dispatch));
    }
  }

  /** Closes every session's socket; with `invalidate`, forgets the sessions too. */
  disconnectAll(code: number, invalidate: boolean): void {
    for (const session of this.#sessions.values()) {
      session.socket?.close(code, 'Closed by the fake');
      session.socket = undefined;
    }
    if (invalidate) this.#sessions.clear();
  }

  /** See GatewayServer.disconnectShard. @returns How many sockets it closed. */
  disconnectShard(shardId: number, code: number, invalidate: boolean): number {
    let closed = 0;
    for (const session of [...this.#sessions.values()]) {
      if (session.shard[0] !== shardId) continue;
      if (session.socket) {
        if (code === 1006) session.socket.terminate();
        else session.socket.close(code, 'Closed by the fake');
        session.socket = undefined;
        closed += 1;
      }
      if (invalidate) this.#sessions.delete(session.id);
    }
    return closed;
  }
}
