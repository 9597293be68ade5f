import { cpus } from 'node:os';

import type { PostgresCluster } from '../test/helpers/postgres-cluster.js';
import { compareAck } from './intake-ack.js';
import { describeRun, measureThroughput, pairedRatios, type Run } from './intake-throughput.js';
import { withDatabase } from './lib/postgres.js';
import { forEachRotatingRound, startLoad, startServer, type ServerProcess } from './lib/processes.js';
import { log, type Figures } from './lib/report.js';
import { formatList, formatNumber, median } from './lib/stats.js';

/** Intake processes of the scaled-out measurement. */
const INTAKES = 3;
/** Below this many cores, three intake processes, PostgreSQL and the load share too few to show a speed-up. */
const CORES_TO_SCALE = 4;

/** intake.pg_ack_p99_ms: bench/intake-ack.ts's open-loop 200/s against one intake process on PostgreSQL. */
export async function measurePgAck(cluster: PostgresCluster, rounds: number, figures: Figures): Promise<void> {
  log('ack on PostgreSQL: time to answer a signed 1 KB delivery at a steady rate, one ROLE=intake process');
  const medians = await withDatabase(cluster, (database) =>
    compareAck(['pg', 'express'], rounds, { storeUrl: database.url }),
  );
  const ours = medians.get('pg')?.p99 ?? Number.NaN;
  const floor = medians.get('express')?.p99 ?? Number.NaN;
  log(`  pg p99 ${formatNumber(ours)} ms (target < 20 ms); bare Express p99 ${formatNumber(floor)} ms`);
  figures.add('intake.pg_ack_p99_ms', ours, 'ms');
}

type Fleet = 'one' | 'three';

/**
 * scale.intake_3_vs_1 (>= 4 cores) or scale.intake_per_process_efficiency (fewer): three intake processes on one
 * database, saturated together (10 connections each, one load process), against the first of them alone, in
 * the same rounds, order rotating.
 */
export async function measureIntakeScaling(cluster: PostgresCluster, rounds: number, figures: Figures): Promise<void> {
  const cores = cpus().length;
  log(`intake scaling: ${INTAKES} ROLE=intake processes on one PostgreSQL database vs one of them alone`);
  const runs = await withDatabase(cluster, async (database) => {
    const load = startLoad();
    const servers: ServerProcess[] = [];
    try {
      for (let i = 0; i < INTAKES; i += 1) servers.push(await startServer('pg', { storeUrl: database.url }));
      const fleets = new Map<Fleet, ServerProcess[]>([
        ['one', servers.slice(0, 1)],
        ['three', servers],
      ]);
      const measured = new Map<Fleet, Run[]>([
        ['one', []],
        ['three', []],
      ]);
      await forEachRotatingRound(['one', 'three'] as const, rounds, fleets, async (fleet, members, round) => {
        const run = await measureThroughput(members, load);
        measured.get(fleet)?.push(run);
        log(`  round ${round + 1} ${`${members.length} intake process(es)`.padEnd(28)} ${describeRun(run)}`);
      });
      return measured;
    } finally {
      await Promise.all([load.stop(), ...servers.map((server) => server.stop())]);
    }
  });
  const one = (runs.get('one') ?? []).map((run) => run.throughput);
  const three = (runs.get('three') ?? []).map((run) => run.throughput);
  const speedups = pairedRatios(three, one);
  const efficiencies = speedups.map((speedup) => speedup / INTAKES);
  log(`  ${INTAKES} processes / 1 per round: ${formatList(speedups)} -> median ${formatNumber(median(speedups))}`);
  log(
    `  per-process efficiency (${INTAKES} processes' deliveries/s / (${INTAKES} x one's)) per round: ` +
      `${formatList(efficiencies)} -> median ${formatNumber(median(efficiencies))}`,
  );
  if (cores >= CORES_TO_SCALE) {
    figures.add('scale.intake_3_vs_1', median(speedups), 'x');
  } else {
    log(
      `  ${cores} CPUs: ${INTAKES} intake processes, PostgreSQL and the load process share them, so more processes ` +
        `cannot show a speed-up here; scale.intake_3_vs_1 needs >= ${CORES_TO_SCALE} CPUs. ` +
        'Reporting per-process efficiency instead (1 = each process as fast as one alone).',
    );
    figures.add('scale.intake_per_process_efficiency', median(efficiencies), 'x');
  }
}
