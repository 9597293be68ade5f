import { Child } from './children.js';
import type { LoadRequest, PacedRequest, PacedResult, SaturateRequest, SaturateResult } from './load-protocol.js';
import {
  POSTGRES_KINDS,
  type ServerKind,
  type ServerReady,
  type ServerReply,
  type ServerRequest,
  type ServerUsage,
} from './server-protocol.js';
import { serverNodeFlags } from './start-flags.js';

/** A server process started for one measurement. */
export interface ServerProcess extends ServerReady {
  kind: ServerKind;
  usage(): Promise<ServerUsage>;
  stop(): Promise<void>;
}

/**
 * The node flags of server processes (lib/start-flags.ts), the peers' too: the bot and bare Express are measured on
 * the runtime the bot runs on in production.
 */
const SERVER_FLAGS = serverNodeFlags();

/** Where a `pg` or `express-pg` server keeps its deliveries: a database of the benchmark's cluster (bench/lib/postgres.ts). */
export interface ServerOptions {
  storeUrl?: string;
}

/** Forks bench/lib/target-server.ts serving `kind` and waits until it listens. */
export async function startServer(kind: ServerKind, options: ServerOptions = {}): Promise<ServerProcess> {
  if (POSTGRES_KINDS.has(kind) && options.storeUrl === undefined) throw new Error(`a ${kind} server needs a storeUrl`);
  const args = options.storeUrl === undefined ? [kind] : [kind, options.storeUrl];
  const child = new Child<ServerRequest, ServerReply>('./target-server.ts', args, SERVER_FLAGS);
  const ready = await child.next();
  if (ready.type !== 'ready') throw new Error(`server process sent ${ready.type} before ready`);
  return {
    ...ready,
    kind,
    async usage() {
      const usage = await child.ask({ type: 'usage' });
      if (usage.type !== 'usage') throw new Error(`server process answered ${usage.type} to usage`);
      return usage;
    },
    async stop() {
      await child.ask({ type: 'stop' });
      await child.ended();
    },
  };
}

type Target = 'type' | 'url' | 'path' | 'secret';

/** A load process (bench/lib/load-worker.ts), kept for the runs of one group. */
export interface LoadProcess {
  /**
   * autocannon, closed loop, against `server`; against several (processes sharing one PostgreSQL store, all
   * serving the first one's path), the connections take turns among them.
   */
  saturate(
    server: ServerReady | readonly ServerReady[],
    options: Omit<SaturateRequest, Target>,
  ): Promise<SaturateResult>;
  /** The paced open-loop sender against `server`. */
  pace(server: ServerReady, options: Omit<PacedRequest, Target>): Promise<PacedResult>;
  stop(): Promise<void>;
}

/** Forks the load process. */
export function startLoad(): LoadProcess {
  const child = new Child<LoadRequest, unknown>('./load-worker.ts');
  const target = (server: ServerReady) => ({ url: server.url, path: server.path, secret: server.secret });
  const targets = (server: ServerReady | readonly ServerReady[]) => {
    const servers: readonly ServerReady[] = 'url' in server ? [server] : server;
    const [first] = servers;
    if (first === undefined) throw new Error('no server to load');
    return { ...target(first), url: servers.map((each) => each.url) };
  };
  return {
    saturate: async (server, options) =>
      (await child.ask({ type: 'saturate', ...targets(server), ...options })) as SaturateResult,
    pace: async (server, options) => (await child.ask({ type: 'paced', ...target(server), ...options })) as PacedResult,
    async stop() {
      child.tell({ type: 'exit' });
      await child.ended();
    },
  };
}

/**
 * Starts one process per kind and a load process, runs `work`, and stops them all whatever happens: the
 * servers of one group live through all its rounds, so rounds differ only in when they run.
 */
export async function withProcesses<T>(
  kinds: readonly ServerKind[],
  work: (servers: ReadonlyMap<ServerKind, ServerProcess>, load: LoadProcess) => Promise<T>,
  options: ServerOptions = {},
): Promise<T> {
  const servers = new Map<ServerKind, ServerProcess>();
  const load = startLoad();
  try {
    for (const kind of kinds) servers.set(kind, await startServer(kind, options));
    return await work(servers, load);
  } finally {
    await Promise.all([load.stop(), ...[...servers.values()].map((server) => server.stop())]);
  }
}

/**
 * Calls `step` for every kind in every round, the order rotating from round to round so that no kind always
 * runs first (on a warming or cooling machine, the first slot of a round is not like the others).
 */
export async function forEachRotatingRound<K, S>(
  kinds: readonly K[],
  rounds: number,
  servers: ReadonlyMap<K, S>,
  step: (kind: K, server: S, round: number) => Promise<void>,
): Promise<void> {
  for (let round = 0; round < rounds; round += 1) {
    const shift = round % kinds.length;
    for (const kind of [...kinds.slice(shift), ...kinds.slice(0, shift)]) {
      const server = servers.get(kind);
      if (server === undefined) throw new Error(`no ${String(kind)} server`);
      await step(kind, server, round);
    }
  }
}
