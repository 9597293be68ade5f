import type { BenchGroup } from './group.js';
import { measureIntakeBreakdown } from './intake-breakdown.js';
import {
  forEachRotatingRound,
  withProcesses,
  type LoadProcess,
  type ServerOptions,
  type ServerProcess,
} from './lib/processes.js';
import { log } from './lib/report.js';
import type { ServerKind } from './lib/server-protocol.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * intake.vs_express: signed 1 KB deliveries per second through the whole intake (verify, parse, dedupe, durable
 * SQLite outbox) divided by what a bare Express 5 route answering 204 takes from the same load process.
 * Servers and load each run in a process of their own, started once per group; the order of the servers
 * rotates from round to round. bench/scale.ts measures the PostgreSQL intake with the same machinery.
 */
const ROUNDS = roundCount(5);
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

export const intakeThroughput: BenchGroup = {
  name: 'intake',
  figures: ['intake.vs_express'],
  async run(figures) {
    log(
      'intake: signed 1 KB deliveries/s, whole intake (real bot, SQLite outbox, synchronous=FULL) vs bare Express 204',
    );
    const throughput = await compareThroughput(['bot', 'bot-without-write', 'express'], ROUNDS);
    const bot = throughput.get('bot') ?? [];
    const withoutWrite = throughput.get('bot-without-write') ?? [];
    const peer = throughput.get('express') ?? [];
    const ratios = pairedRatios(bot, peer);
    log(`  bot/express per round: ${formatList(ratios)} -> median ${formatNumber(median(ratios))} (target >= 0.5)`);
    // The same bot with a store that writes nothing: how much of the gap is the HTTP path, how much the write.
    const ceiling = pairedRatios(withoutWrite, peer);
    log(
      `  bot-without-write/express per round: ${formatList(ceiling)} -> median ${formatNumber(median(ceiling))} ` +
        '(the HTTP path alone: what the intake would reach if storing cost nothing)',
    );
    log(
      `  wall time per request at saturation (medians): bot ${formatNumber(1e6 / median(bot))} µs, ` +
        `without the write ${formatNumber(1e6 / median(withoutWrite))} µs, express ${formatNumber(1e6 / median(peer))} µs`,
    );
    figures.add('intake.vs_express', median(ratios), 'x');

    await measureIntakeBreakdown();
  },
};
