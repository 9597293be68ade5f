import type { BenchGroup } from './group.js';
import { buildForNpmStart } from './lib/npm-start-build.js';
import { withPostgresCluster } from './lib/postgres.js';
import { log } from './lib/report.js';
import { roundCount } from './lib/stats.js';
import { measureChaos } from './scale-chaos.js';
import { measureFailover } from './scale-failover.js';
import { measureIntakeScaling, measurePgAck } from './scale-intake.js';

/**
 * Several processes on PostgreSQL (docs/hosting.md, "Several processes on PostgreSQL"): the intake's answer time on
 * PostgreSQL at a steady rate (its throughput against its peers is the `intake` group's), three intake processes against one, and then real bot
 * processes (built and started as `npm start` does) through the chaos scenario and through feed process kills.
 * One throwaway cluster for the group (stopped at the end, whatever happens), a fresh database per measurement.
 * The intake measurements run first, while no fleet of bot processes loads the machine.
 */
const INTAKE_ROUNDS = roundCount(5);
/** A chaos round takes about two minutes (the 10,000 deliveries, then the drain after Discord's faults). */
const CHAOS_ROUNDS = roundCount(3);
const FAILOVER_ROUNDS = roundCount(3);

/** The group's parts; BENCH_SCALE_ONLY=<part>[,<part>] runs only those (e.g. `failover` while working on it). */
const PARTS = ['intake', 'chaos', 'failover'] as const;
type Part = (typeof PARTS)[number];

function selectedParts(): ReadonlySet<Part> {
  const only = process.env.BENCH_SCALE_ONLY;
  if (only === undefined || only === '') return new Set(PARTS);
  const named = only.split(',').map((part) => part.trim());
  const unknown = named.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) {
    throw new Error(`BENCH_SCALE_ONLY: unknown part(s) ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
  }
  return new Set(named as Part[]);
}

export const scaleGroup: BenchGroup = {
  name: 'scale',
  figures: [
    'intake.pg_ack_p99_ms',
    'scale.intake_3_vs_1',
    'scale.intake_per_process_efficiency',
    'scale.lost',
    'scale.doubled',
    'scale.order_violations',
    'scale.failover_p99_ms',
  ],
  async run(figures) {
    const parts = selectedParts();
    await withPostgresCluster(async (cluster) => {
      log(`  throwaway PostgreSQL cluster on 127.0.0.1:${cluster.port} (fsync off, synchronous_commit on)`);
      if (parts.size < PARTS.length) log(`  only ${[...parts].join(', ')} (BENCH_SCALE_ONLY)`);
      if (parts.has('intake')) {
        await measurePgAck(cluster, INTAKE_ROUNDS, figures);
        await measureIntakeScaling(cluster, INTAKE_ROUNDS, figures);
      }
      if (parts.has('chaos') || parts.has('failover')) {
        // The fleets run what a host runs: the compiled bot, with npm start's flags.
        const bot = await buildForNpmStart();
        if (parts.has('chaos')) await measureChaos(cluster, CHAOS_ROUNDS, figures, bot);
        if (parts.has('failover')) await measureFailover(cluster, FAILOVER_ROUNDS, figures, bot);
      }
    });
  },
};
