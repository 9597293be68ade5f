import type { BenchGroup } from './group.js';
import { measureIntakeBreakdown } from './intake-breakdown.js';
import { measurePgThroughput } from './intake-postgres.js';
import { measureSqliteThroughput } from './intake-throughput.js';
import { withPostgresCluster } from './lib/postgres.js';
import { log } from './lib/report.js';
import { roundCount } from './lib/stats.js';

const ROUNDS = roundCount(5);

/**
 * The intake measured against the right peers (issue 48): on SQLite, then on PostgreSQL (a throwaway cluster for the
 * group), each against what a host would write by hand and against bare Express; then the in-process breakdown of
 * one delivery's cost.
 */
export const intakeGroup: BenchGroup = {
  name: 'intake',
  figures: [
    'intake.vs_durable_peer',
    'intake.http_path_vs_express',
    'intake.http_path_vs_verifying_peer',
    'intake.vs_express',
    'intake.pg_vs_durable_peer',
    'intake.pg_vs_express',
  ],
  async run(figures) {
    await measureSqliteThroughput(ROUNDS, figures);
    await withPostgresCluster(async (cluster) => {
      log(`  throwaway PostgreSQL cluster on 127.0.0.1:${cluster.port} (fsync off, synchronous_commit on)`);
      await measurePgThroughput(cluster, ROUNDS, figures);
    });
    await measureIntakeBreakdown();
  },
};
