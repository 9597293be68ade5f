import { pino } from 'pino';

import { PostgresLeases } from '../../src/store/postgres/pg-leases.js';
import { PostgresSignals } from '../../src/store/postgres/pg-signals.js';

/**
 * A feed process's leases alone, in a process of its own that a test can SIGKILL (test/integration/
 * pg-lease-handover.test.ts): LEASE_URL, LEASE_NAME (its application_name), LEASE_REBALANCE_MS. Writes one line
 * `held <n>` each time the partitions it holds change.
 */
const url = process.env.LEASE_URL ?? '';
const name = process.env.LEASE_NAME ?? 'lease-holder';
const logger = pino({ level: 'warn' }, pino.destination(2));
const signals = new PostgresSignals({ connectionString: url, application_name: `${name}-signals` }, logger);
await signals.start();
const leases = new PostgresLeases(
  { connectionString: url, application_name: name },
  { logger, wantsGateway: false, rebalanceMs: Number(process.env.LEASE_REBALANCE_MS ?? 500), keepTakenMs: 0 },
  signals,
);
const report = () => process.stdout.write(`held ${leases.partitions.length}\n`);
await leases.start({
  gained: report,
  losing: () => {
    report();
    return Promise.resolve();
  },
});
report();
// Kept alive by its connections until the test kills it.
