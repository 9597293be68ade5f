import {
  forEachRotatingRound,
  withProcesses,
  type LoadProcess,
  type ServerOptions,
  type ServerProcess,
} from './lib/processes.js';
import { log, type Figures } from './lib/report.js';
import type { ServerKind } from './lib/server-protocol.js';
import { formatList, formatNumber, median } from './lib/stats.js';

/**
 * The intake's throughput against its peers: signed 1 KB deliveries per second, saturated from one load process,
 * each server in a process of its own, started once per measurement; the order of the servers rotates from round
 * to round. Used by the `intake` group (bench/intake.ts, bench/intake-postgres.ts) and by `scale`'s intake part.
 */
const CONNECTIONS = 10;
const WARMUP_SEC = 1;
const DURATION_SEC = 4;

/** One saturated run against one server, or against several at once. */
export interface Run {
  throughput: number;
  /** CPU the server processes spent per request they handled, warm-up included, µs. */
  cpuPerRequestUs: number;
  /** CPU cores the server processes kept busy (1 = one core). */
  cores: number;
  p99Ms: number;
  loadCores: number;
}

/**
 * Saturates `servers` (one, or several sharing a PostgreSQL store, each with CONNECTIONS connections) and reads
 * their CPU and outbox counters around it.
 */
export async function measureThroughput(servers: readonly ServerProcess[], load: LoadProcess): Promise<Run> {
  const [first] = servers;
  if (first === undefined) throw new Error('no server to measure');
  const before = await Promise.all(servers.map((server) => server.usage()));
  const result = await load.saturate(servers, {
    connections: CONNECTIONS * servers.length,
    durationSec: DURATION_SEC,
    warmupSec: WARMUP_SEC,
  });
  const after = await Promise.all(servers.map((server) => server.usage()));
  if (result.non2xx > 0 || result.errors > 0) {
    log(
      `  ! ${first.kind}: ${result.non2xx} non-2xx, ${result.errors} errors, status codes ${JSON.stringify(result.statusCodes)}`,
    );
  }
  // Requests in flight when a load run stops are stored but their answers are not counted: up to one per
  // connection for the warm-up, the measured run, and the previous round's run finishing after `before`.
  // Servers on one PostgreSQL store all count its outbox: the first one's count is everyone's.
  const answered = result.warmupOk + result.ok;
  const counted = first.kind === 'pg' ? [0] : servers.map((_, i) => i);
  const handled = counted.reduce((sum, i) => sum + (after[i]?.handled ?? 0) - (before[i]?.handled ?? 0), 0);
  const slack = 3 * CONNECTIONS * servers.length;
  if (first.kind !== 'express' && (handled < answered || handled > answered + slack)) {
    log(`  ! ${first.kind}: ${answered} deliveries answered 2xx but ${handled} entered the outbox`);
  }
  let cpu = 0;
  let cores = 0;
  servers.forEach((_, i) => {
    const spent = (after[i]?.cpuMicros ?? 0) - (before[i]?.cpuMicros ?? 0);
    cpu += spent;
    cores += spent / 1000 / ((after[i]?.atMs ?? 0) - (before[i]?.atMs ?? 0));
  });
  return {
    throughput: result.throughput,
    cpuPerRequestUs: cpu / Math.max(1, handled),
    cores,
    p99Ms: result.latencyP99Ms,
    loadCores: result.loadCores,
  };
}

/** The raw numbers of one run, for the line that names its round and server. */
export function describeRun(run: Run): string {
  return (
    `${formatNumber(run.throughput).padStart(6)} req/s  p99 ${formatNumber(run.p99Ms)} ms  ` +
    `server CPU ${formatNumber(run.cpuPerRequestUs)} µs/req, ${formatNumber(run.cores)} cores busy; load process ${formatNumber(run.loadCores)} cores`
  );
}

/**
 * Saturates each kind of server in turn, `rounds` times (order rotating), and prints the raw numbers.
 * @returns per kind, the throughput of every round (index = round)
 */
export async function compareThroughput(
  kinds: readonly ServerKind[],
  rounds: number,
  options: ServerOptions = {},
): Promise<Map<ServerKind, number[]>> {
  log(
    `  one process per server and one load process for all rounds; ${rounds} rounds, ${CONNECTIONS} connections, ` +
      `${WARMUP_SEC} s warm-up + ${DURATION_SEC} s measured per server and round`,
  );
  const runs = new Map<ServerKind, Run[]>(kinds.map((kind) => [kind, []]));
  await withProcesses(
    kinds,
    async (servers, load) => {
      await forEachRotatingRound(kinds, rounds, servers, async (kind, server, round) => {
        const run = await measureThroughput([server], load);
        runs.get(kind)?.push(run);
        log(`  round ${round + 1} ${kind.padEnd(28)} ${describeRun(run)}`);
      });
    },
    options,
  );
  for (const [kind, list] of runs) {
    log(
      `  ${kind.padEnd(28)} req/s: ${formatList(list.map((run) => run.throughput))} -> median ${formatNumber(median(list.map((run) => run.throughput)))}; ` +
        `server CPU ${formatNumber(median(list.map((run) => run.cpuPerRequestUs)))} µs/req, ${formatNumber(median(list.map((run) => run.cores)))} cores busy (medians)`,
    );
  }
  return new Map([...runs].map(([kind, list]) => [kind, list.map((run) => run.throughput)]));
}

/** Per-round ratios a[i] / b[i]. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / (b[i] ?? Number.NaN));
}

/** The targets of issue 48: the bot against what a host would write, and its HTTP path against bare Express. */
export const DURABLE_PEER_TARGET = 2;
const HTTP_PATH_TARGET = 0.8;
/** The bot's HTTP path against a hand-written route doing the same required work: no slower (proposed, issue 48). */
const VERIFYING_PEER_TARGET = 1;

/**
 * On SQLite: intake.vs_durable_peer, the real bot over a hand-written Express route inserting each delivery with
 * better-sqlite3 and `synchronous=FULL` (lib/durable-peers.ts); intake.http_path_vs_express, the same bot whose store
 * writes nothing (`bot-without-write`) over a bare Express 5 route answering 204; intake.http_path_vs_verifying_peer,
 * that bot over the hand-written route storing nothing (`express-verify`: the body read, HMAC and JSON.parse a bare
 * 204 skips); intake.vs_express, the bot over bare Express (the figure of the issues before, kept so the history
 * stays readable). All five in the same rounds.
 */
export async function measureSqliteThroughput(rounds: number, figures: Figures): Promise<void> {
  log(
    'intake: signed 1 KB deliveries/s, whole intake (real bot, SQLite outbox, synchronous=FULL) vs Express + ' +
      'better-sqlite3 insert per request (synchronous=FULL) vs the bot writing nothing vs bare Express 204',
  );
  const throughput = await compareThroughput(
    ['bot', 'express-sqlite', 'bot-without-write', 'express', 'express-verify'],
    rounds,
  );
  const bot = throughput.get('bot') ?? [];
  const durablePeer = throughput.get('express-sqlite') ?? [];
  const withoutWrite = throughput.get('bot-without-write') ?? [];
  const peer = throughput.get('express') ?? [];
  const vsDurable = pairedRatios(bot, durablePeer);
  log(
    `  bot/express-sqlite per round: ${formatList(vsDurable)} -> median ${formatNumber(median(vsDurable))} ` +
      `(target >= ${DURABLE_PEER_TARGET})`,
  );
  // The same bot with a store that writes nothing: its HTTP path (hook lookup, body, HMAC, JSON, envelope, answer).
  const httpPath = pairedRatios(withoutWrite, peer);
  log(
    `  bot-without-write/express per round: ${formatList(httpPath)} -> median ${formatNumber(median(httpPath))} ` +
      `(target >= ${HTTP_PATH_TARGET}: the HTTP path alone, what the intake would reach if storing cost nothing)`,
  );
  const verifyingPeer = pairedRatios(withoutWrite, throughput.get('express-verify') ?? []);
  log(
    `  bot-without-write/express-verify per round: ${formatList(verifyingPeer)} -> median ${formatNumber(median(verifyingPeer))} ` +
      `(target >= ${VERIFYING_PEER_TARGET}, proposed: the same required work as a hand-written route, no slower)`,
  );
  const ratios = pairedRatios(bot, peer);
  log(
    `  bot/express per round: ${formatList(ratios)} -> median ${formatNumber(median(ratios))} ` +
      '(the old target, 0.5, retired: kept for the history)',
  );
  log(
    `  wall time per request at saturation (medians): bot ${formatNumber(1e6 / median(bot))} µs, ` +
      `express-sqlite ${formatNumber(1e6 / median(durablePeer))} µs, without the write ${formatNumber(1e6 / median(withoutWrite))} µs, ` +
      `express ${formatNumber(1e6 / median(peer))} µs`,
  );
  figures.add('intake.vs_durable_peer', median(vsDurable), 'x');
  figures.add('intake.http_path_vs_express', median(httpPath), 'x');
  figures.add('intake.http_path_vs_verifying_peer', median(verifyingPeer), 'x');
  figures.add('intake.vs_express', median(ratios), 'x');
}
