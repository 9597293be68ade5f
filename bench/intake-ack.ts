import type { BenchGroup } from './group.js';
import type { PacedResult } from './lib/load-protocol.js';
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
 * intake.ack_p99_ms: at a steady 200 signed deliveries per second, the 99th percentile time to the intake's
 * answer, against the 5 s the service waits (intake.ack_p99_vs_limit). The sender is open loop: delivery i is
 * due at i/200 s whatever happened to the others, and its time counts from when it was due, so a stalled
 * server or sender cannot hide slow answers (no coordinated omission). The bare Express route is measured the
 * same way, shorter, as the floor this machine and load process give.
 */
const ROUNDS = roundCount(5);
const RATE = 200;
const WARMUP_SEC = 1;
const BOT_SEC = 10;
const PEER_SEC = 3;
/** How long the service waits for an answer (upstream-api.md). */
const SERVICE_LIMIT_MS = 5_000;

async function measure(server: ServerProcess, load: LoadProcess): Promise<PacedResult> {
  const durationSec = server.kind === 'express' ? PEER_SEC : BOT_SEC;
  const result = await load.pace(server, { rate: RATE, durationSec, warmupSec: WARMUP_SEC });
  if (result.failed > 0)
    log(
      `  ! ${server.kind}: ${result.failed} of ${result.sent} not answered 2xx: ${JSON.stringify(result.statusCodes)}`,
    );
  return result;
}

/** Paces each kind of server in turn, `rounds` times (order rotating); prints raw numbers; medians per kind. */
export async function compareAck(
  kinds: readonly ServerKind[],
  rounds: number,
  options: ServerOptions = {},
): Promise<Map<ServerKind, { p50: number; p99: number }>> {
  log(
    `  one process per server and one load process for all rounds; ${RATE} deliveries/s open loop, ${rounds} rounds, ` +
      `${WARMUP_SEC} s warm-up + ${BOT_SEC} s per bot, ${PEER_SEC} s per bare Express`,
  );
  const results = new Map<ServerKind, PacedResult[]>(kinds.map((kind) => [kind, []]));
  await withProcesses(
    kinds,
    async (servers, load) => {
      await forEachRotatingRound(kinds, rounds, servers, async (kind, server, round) => {
        const result = await measure(server, load);
        results.get(kind)?.push(result);
        log(
          `  round ${round + 1} ${kind.padEnd(28)} ${result.ok}/${result.sent} ok at ${formatNumber(result.achievedRate)}/s  ` +
            `p50 ${formatNumber(result.p50Ms)} ms  p99 ${formatNumber(result.p99Ms)} ms  max ${formatNumber(result.maxMs)} ms  ` +
            `(p99 from send ${formatNumber(result.p99FromSendMs)} ms, sender behind schedule by up to ${formatNumber(result.maxLagMs)} ms)`,
        );
      });
    },
    options,
  );
  const medians = new Map<ServerKind, { p50: number; p99: number }>();
  for (const [kind, list] of results) {
    const p50 = list.map((result) => result.p50Ms);
    const p99 = list.map((result) => result.p99Ms);
    log(`  ${kind.padEnd(28)} p50 ${formatList(p50)} -> median ${formatNumber(median(p50))} ms`);
    log(`  ${kind.padEnd(28)} p99 ${formatList(p99)} -> median ${formatNumber(median(p99))} ms`);
    medians.set(kind, { p50: median(p50), p99: median(p99) });
  }
  return medians;
}

export const intakeAck: BenchGroup = {
  name: 'ack',
  figures: ['intake.ack_p99_ms', 'intake.ack_p99_vs_limit'],
  async run(figures) {
    log('ack: time to answer a signed 1 KB delivery at a steady rate, real bot vs bare Express');
    const medians = await compareAck(['bot', 'express'], ROUNDS);
    const ours = medians.get('bot') ?? { p50: Number.NaN, p99: Number.NaN };
    const floor = medians.get('express') ?? { p50: Number.NaN, p99: Number.NaN };
    log(
      `  bot p50 ${formatNumber(ours.p50)} ms = ${formatNumber(ours.p50 / SERVICE_LIMIT_MS)} of the ${SERVICE_LIMIT_MS} ms limit; ` +
        `p99 ${formatNumber(ours.p99)} ms = ${formatNumber(ours.p99 / SERVICE_LIMIT_MS)} of it (target p99 < 20 ms)`,
    );
    log(`  bot p99 / bare Express p99: ${formatNumber(ours.p99 / floor.p99)}`);
    figures.add('intake.ack_p99_ms', ours.p99, 'ms');
    figures.add('intake.ack_p99_vs_limit', ours.p99 / SERVICE_LIMIT_MS, 'x');
  },
};
