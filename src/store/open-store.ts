import type { Logger } from '../base/logger.js';
import type { StoreModule } from './store-module.js';
import type { Store } from './store.js';

export type { Store } from './store.js';

/**
 * Opens the store `storeUrl` names: `sqlite://<path>` (relative paths from the working directory),
 * `postgres://…` (shared by any number of processes), or `memory://` (an SQLite database in memory: nothing
 * kept; tests).
 * Each engine is loaded only when it is named: a bot on SQLite never loads `pg` and the PostgreSQL engine (about
 * 1 MB of its heap for as long as it runs), one on PostgreSQL never loads better-sqlite3.
 * @param modules the features' store modules (src/features/index.ts's list): their migrations are applied after
 *   the kernel's, in this order, and `store.of` opens each one's store.
 * @param clock the clock used for record timestamps; tests pass their own.
 */
export async function openStore(
  storeUrl: string,
  modules: readonly StoreModule[],
  clock: () => number = Date.now,
  logger?: Logger,
): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(storeUrl)) {
    const { openPostgresStore } = await import('./postgres/open-postgres-store.js');
    return openPostgresStore(storeUrl, modules, clock, logger);
  }
  const path = storeUrl === 'memory://' || storeUrl === 'memory' ? ':memory:' : sqlitePath(storeUrl);
  const { openSqliteStore } = await import('./sqlite/open-sqlite-store.js');
  return openSqliteStore(path, clock, { modules });
}

function sqlitePath(storeUrl: string): string {
  if (storeUrl.startsWith('sqlite://')) return storeUrl.slice('sqlite://'.length);
  throw new Error(`unsupported STORE_URL scheme: ${storeUrl.split(':')[0] ?? ''}`);
}
