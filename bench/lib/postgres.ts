import {
  createDatabase,
  findPostgresBinDir,
  NO_POSTGRES,
  startPostgresCluster,
  type PostgresCluster,
  type PostgresDatabase,
} from '../../test/helpers/postgres-cluster.js';

/**
 * Runs `work` with a throwaway PostgreSQL cluster (the tests' own, test/helpers/postgres-cluster.ts) and stops
 * it afterwards, whatever happens, Ctrl-C included: pg_ctl starts the server in the background, so it would
 * outlive the benchmark.
 */
export async function withPostgresCluster<T>(work: (cluster: PostgresCluster) => Promise<T>): Promise<T> {
  const binDir = findPostgresBinDir();
  if (!binDir) {
    throw new Error(`no PostgreSQL for the benchmark: ${NO_POSTGRES}`);
  }
  const cluster = await startPostgresCluster(binDir);
  const interrupted = (signal: NodeJS.Signals) => {
    void cluster.stop().finally(() => process.kill(process.pid, signal));
  };
  // A promise nobody awaits that fails would end the process without the `finally` below.
  const crashed = (reason: unknown) => {
    process.stderr.write(
      `unhandled rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : String(reason)}\n`,
    );
    void cluster.stop().finally(() => process.exit(1));
  };
  process.once('SIGINT', interrupted);
  process.once('SIGTERM', interrupted);
  process.once('unhandledRejection', crashed);
  try {
    return await work(cluster);
  } finally {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
    process.off('unhandledRejection', crashed);
    await cluster.stop();
  }
}

/** A fresh database for one measurement, dropped after `work`. */
export async function withDatabase<T>(
  cluster: PostgresCluster,
  work: (database: PostgresDatabase) => Promise<T>,
): Promise<T> {
  const database = await createDatabase(cluster.adminUrl);
  try {
    return await work(database);
  } finally {
    await database.drop();
  }
}
