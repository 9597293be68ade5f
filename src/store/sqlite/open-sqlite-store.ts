import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

import { ownEverything } from '../coordination.js';
import { kernelPersonRows, postedCardsStatement } from '../kernel-person-rows.js';
import { SqlPersonData } from '../person-data.js';
import { LocalSignals } from '../signals.js';
import { sqliteDialect } from '../sql-dialect.js';
import { SqlSetAside } from '../sql-set-aside.js';
import { openModules, type StoreModule } from '../store-module.js';
import type { Store } from '../store.js';
import { migrate } from './migrate.js';
import { lockStoreFile } from './process-lock.js';
import { createPrivateStoreFile, restrictCompanionFiles } from './restrict-file-modes.js';
import { createSqliteDeliveries } from './sqlite-deliveries.js';
import { SqliteDocuments } from './sqlite-documents.js';
import { SqliteGuildForgetting } from './sqlite-forget-guild.js';
import { SqliteGuildSettings } from './sqlite-guild-settings.js';
import { SqliteHookActivity } from './sqlite-hook-activity.js';
import { SqliteHooks } from './sqlite-hooks.js';
import { SqliteReroute } from './sqlite-reroute.js';
import { SqliteSqlRunner } from './sqlite-sql-runner.js';
import { WriteBatcher } from './write-batcher.js';

/**
 * Why these settings: WAL lets readers see the last commit while a batch writes, and commits append to the log
 * instead of rewriting pages. `synchronous=FULL` fsyncs the log at every commit, so a delivery we answered 2xx
 * for survives a crash of the process and of the machine. Group commit (WriteBatcher) shares one fsync among
 * the writes that arrive together, which makes FULL affordable.
 */
export const SQLITE_PRAGMAS = [
  'journal_mode = WAL',
  'synchronous = FULL',
  'busy_timeout = 5000',
  'foreign_keys = ON',
  // 2 MiB of page cache (better-sqlite3's default is 16): the hot pages are the lanes' heads and the indexes'
  // upper levels, a few hundred pages; the rest is read back from the OS's file cache, which is not the
  // process's memory. At 8 MiB the cache was full after 10,000 events, 6 MB of the bot's RSS, and the intake's
  // and backlog's figures were no better for it (bench feed-memory, intake, backlog).
  'cache_size = -2000',
];

/** What the store is opened with besides its file. */
export interface SqliteOptions {
  /** The features' store modules (src/features/index.ts): their migrations run, their stores are opened. */
  modules?: readonly StoreModule[];
  /** For the store benchmark only: what FULL costs is measured against NORMAL on the same code. */
  synchronous?: 'NORMAL';
}

/**
 * Opens the SQLite store at `path` (`:memory:` for a store that lives as long as the process), creating the file
 * (mode 0600, like SQLite's `-wal` and `-shm` beside it) and its folder, taking the single-process lock, and
 * bringing the schema up to date.
 */
export function openSqliteStore(path: string, clock: () => number, options: SqliteOptions = {}): Store {
  const modules = options.modules ?? [];
  const memory = path === ':memory:';
  const file = memory ? path : resolve(path);
  if (!memory) mkdirSync(dirname(file), { recursive: true });
  const lock = memory ? undefined : lockStoreFile(file);
  let db: Database.Database;
  try {
    if (!memory) {
      createPrivateStoreFile(file);
      restrictCompanionFiles(file);
    }
    db = new Database(file);
    for (const pragma of SQLITE_PRAGMAS) db.pragma(pragma);
    if (options.synchronous) db.pragma(`synchronous = ${options.synchronous}`);
    migrate(db, modules);
  } catch (error) {
    lock?.release();
    throw error;
  }
  const signals = new LocalSignals();
  const writes = new WriteBatcher(db, signals);
  const deliveries = createSqliteDeliveries(db, writes);
  const hooks = new SqliteHooks(db, writes);
  const forgetting = new SqliteGuildForgetting(db, writes, hooks, modules);
  const runner = new SqliteSqlRunner(db, writes);
  const setAside = new SqlSetAside(sqliteDialect, runner);
  const of = openModules(modules, { runner, dialect: sqliteDialect, setAside, clock });
  return {
    kind: memory ? 'memory' : 'sqlite',
    hooks,
    guilds: new SqliteGuildSettings(db, writes, new SqliteReroute(db, clock)),
    deliveries,
    activity: new SqliteHookActivity(db, writes),
    documents: new SqliteDocuments(db, writes),
    setAside,
    signals,
    of,
    people: new SqlPersonData(
      sqliteDialect,
      runner,
      [...kernelPersonRows('sqlite'), ...modules.flatMap((module) => module.personRows ?? [])],
      postedCardsStatement('sqlite'),
    ),
    forgetGuild: (guildId) => forgetting.forgetGuild(guildId),
    knownGuilds: () => forgetting.knownGuilds(),
    // The file lock admits one process: it posts every feed and holds the gateway.
    coordinate: (options) => ownEverything(options),
    close() {
      writes.flush();
      db.close();
      lock?.release();
      return Promise.resolve();
    },
  };
}
