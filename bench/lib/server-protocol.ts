/** Messages between a benchmark group and a server process (bench/lib/target-server.ts). */

/**
 * `bot`: the real intake (startBot, SQLite file in a temp dir); `pg`: the real intake as an intake-only process
 * (ROLE=intake) on a PostgreSQL database given to it; `express`: a bare Express 5 route answering 204;
 * `bot-without-write`: the real bot whose store answers every delivery 'accepted' without writing it (a peer,
 * not a mode of the product: what the intake's HTTP path alone costs, against which the write's cost shows);
 * `express-sqlite` and `express-pg`: the durable peers, a hand-written Express route that verifies, parses and
 * inserts one row per request (better-sqlite3 with `synchronous=FULL`, or node-postgres) before its 204
 * (lib/durable-peers.ts); `express-verify`, the same route storing nothing (the peer of `bot-without-write`).
 */
export type ServerKind =
  'bot' | 'pg' | 'express' | 'bot-without-write' | 'express-sqlite' | 'express-pg' | 'express-verify';

/** The kinds that keep their deliveries in a PostgreSQL database given to them (ServerOptions.storeUrl). */
export const POSTGRES_KINDS: ReadonlySet<ServerKind> = new Set(['pg', 'express-pg']);

export type ServerRequest = { type: 'usage' } | { type: 'stop' };

export interface ServerReady {
  type: 'ready';
  url: string;
  /** Where deliveries go: /webhooks/<hookId>. */
  path: string;
  secret: string;
}

/** Counters since the process started; a group takes the difference of two. */
export interface ServerUsage {
  type: 'usage';
  /** User + system CPU time of the whole process (its libuv threads, e.g. SQLite's, included), µs. */
  cpuMicros: number;
  /** performance.now() of the server process, ms. */
  atMs: number;
  /** Deliveries the bot has in its outbox (a PostgreSQL one: every process's), or requests the bare route answered. */
  handled: number;
}

export interface ServerStopped {
  type: 'stopped';
}

export type ServerReply = ServerReady | ServerUsage | ServerStopped;
