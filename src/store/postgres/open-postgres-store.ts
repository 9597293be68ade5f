import pg from 'pg';

import type { Logger } from '../../base/logger.js';
import { kernelPersonRows, postedCardsStatement } from '../kernel-person-rows.js';
import { SqlPersonData } from '../person-data.js';
import { postgresDialect } from '../sql-dialect.js';
import { SqlSetAside } from '../sql-set-aside.js';
import { openModules, type StoreModule } from '../store-module.js';
import type { Store } from '../store.js';
import { CONNECT_TIMEOUT_MS, withTimeouts } from './connection-timeouts.js';
import { explainConnectFailure } from './explain-connect-failure.js';
import { migrate } from './migrate.js';
import { createPostgresDeliveries } from './pg-deliveries.js';
import { PostgresDocuments } from './pg-documents.js';
import { PostgresGuildForgetting } from './pg-forget-guild.js';
import { PostgresGuildSettings } from './pg-guild-settings.js';
import { PostgresHookActivity } from './pg-hook-activity.js';
import { PostgresHooks } from './pg-hooks.js';
import { PostgresLeases } from './pg-leases.js';
import { PostgresSignals } from './pg-signals.js';
import { PostgresSqlRunner } from './pg-sql-runner.js';
import { requireSupportedVersion } from './require-supported-version.js';

/** BIGINT (int8) as a JS number: every bigint here (seq, ms timestamps) stays far below 2^53. */
const INT8_OID = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number) =>
    oid === INT8_OID
      ? Number
      : (pg.types.getTypeParser(oid, 'text') as (text: string) => unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

/** Connections one process keeps: the intake's accepts and the feed's lanes share them. */
const POOL_SIZE = 10;

/**
 * Opens the PostgreSQL store at `url`: checks the server (PostgreSQL 14 or newer), applies migrations (once,
 * whichever process starts first), connects the pool and the LISTEN connection that carries the store's signals
 * between processes. Every connection but the migrations' has connect, statement and query timeouts. Durability
 * is the server's: with `synchronous_commit=on` (the default) a commit, and so a 204, survives a crash of the
 * server.
 * @throws StartupError when the server cannot be reached or refuses the connection, or is older than 14
 */
export async function openPostgresStore(
  url: string,
  modules: readonly StoreModule[],
  clock: () => number,
  logger?: Logger,
): Promise<Store> {
  const config: pg.ClientConfig = { connectionString: url, types, application_name: 'service-discord-bridge' };
  await prepareDatabase(url, config, modules);
  const pool = new pg.Pool({ ...withTimeouts(config), max: POOL_SIZE });
  // A connection that fails while idle in the pool is replaced by the pool; the error must not crash the process.
  pool.on('error', (error) => logger?.warn({ err: { message: error.message } }, 'a store connection failed'));
  // The pool listens for a connection's errors only at some moments of its life: a server that restarts or fails
  // over can end one outside them (seen under pg_ctl restart), an 'error' event nobody hears, which would end the
  // process. The query under way fails with the error either way; this listener only keeps the process up.
  pool.on('connect', (client) => {
    client.on('error', (error) => logger?.debug({ err: { message: error.message } }, 'a store connection ended'));
  });
  const signals = new PostgresSignals(
    withTimeouts({ ...config, application_name: 'service-discord-bridge-signals' }),
    logger,
  );
  try {
    await signals.start();
  } catch (error) {
    await signals.close();
    await pool.end();
    throw explainConnectFailure(url, error);
  }
  const guilds = new PostgresGuildSettings(pool, signals, clock);
  const hooks = new PostgresHooks(pool, signals);
  const forgetting = new PostgresGuildForgetting(pool, hooks, guilds, modules);
  const runner = new PostgresSqlRunner(pool);
  const setAside = new SqlSetAside(postgresDialect, runner);
  const of = openModules(modules, { runner, dialect: postgresDialect, setAside, clock });
  return {
    kind: 'postgres',
    hooks,
    guilds,
    deliveries: createPostgresDeliveries(pool, guilds),
    activity: new PostgresHookActivity(pool),
    documents: new PostgresDocuments(pool),
    setAside,
    signals,
    of,
    people: new SqlPersonData(
      postgresDialect,
      runner,
      [...kernelPersonRows('postgres'), ...modules.flatMap((module) => module.personRows ?? [])],
      postedCardsStatement('postgres'),
    ),
    forgetGuild: (guildId) => forgetting.forgetGuild(guildId),
    knownGuilds: () => forgetting.knownGuilds(),
    // The pid names the process in pg_stat_activity: which one holds which partitions (pg_locks) is then visible.
    coordinate: (options) =>
      new PostgresLeases(
        withTimeouts({ connectionString: url, application_name: `service-discord-bridge-leases-${process.pid}` }),
        options,
        signals,
      ),
    async close() {
      await signals.close();
      await pool.end();
    },
  };
}

/**
 * The first connection: whether the server is there and new enough, then the migrations, on a connection of
 * their own without statement or query timeouts (they wait for each other on a lock, and may rewrite tables).
 */
async function prepareDatabase(url: string, config: pg.ClientConfig, modules: readonly StoreModule[]): Promise<void> {
  const client = new pg.Client({ ...config, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An error after connecting (the server going away meanwhile) surfaces on the query under way.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    throw explainConnectFailure(url, error);
  }
  try {
    await requireSupportedVersion(client);
    await migrate(client, modules);
  } finally {
    await client.end().catch(() => undefined);
  }
}
