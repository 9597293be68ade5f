import type { PostgresCluster } from '../test/helpers/postgres-cluster.js';
import { compareThroughput, DURABLE_PEER_TARGET, pairedRatios } from './intake-throughput.js';
import { withDatabase } from './lib/postgres.js';
import { log, type Figures } from './lib/report.js';
import { formatList, formatNumber, median } from './lib/stats.js';

/**
 * intake.pg_vs_durable_peer: signed 1 KB deliveries/s through one intake-only process on PostgreSQL (a `pg`
 * server) over a hand-written Express route inserting each delivery with node-postgres (`express-pg`,
 * lib/durable-peers.ts), both on one database of the throwaway cluster; intake.pg_vs_express the same bot over bare
 * Express, kept so the history stays readable. The three servers take turns in the same rounds.
 */
export async function measurePgThroughput(cluster: PostgresCluster, rounds: number, figures: Figures): Promise<void> {
  log(
    'intake on PostgreSQL: one ROLE=intake process vs Express + node-postgres insert per request vs bare Express 204',
  );
  const throughput = await withDatabase(cluster, (database) =>
    compareThroughput(['pg', 'express-pg', 'express'], rounds, { storeUrl: database.url }),
  );
  const pg = throughput.get('pg') ?? [];
  const peer = pairedRatios(pg, throughput.get('express-pg') ?? []);
  log(
    `  pg/express-pg per round: ${formatList(peer)} -> median ${formatNumber(median(peer))} (target >= ${DURABLE_PEER_TARGET})`,
  );
  const bare = pairedRatios(pg, throughput.get('express') ?? []);
  log(
    `  pg/express per round: ${formatList(bare)} -> median ${formatNumber(median(bare))} (the old target, 0.5, retired)`,
  );
  figures.add('intake.pg_vs_durable_peer', median(peer), 'x');
  figures.add('intake.pg_vs_express', median(bare), 'x');
}
