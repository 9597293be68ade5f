import type { Logger } from '../base/logger.js';
import { openPostgresStore } from './postgres/open-postgres-store.js';
import { openSqliteStore } from './sqlite/open-sqlite-store.js';
import type { Store } from './store.js';

export type { Store } from './store.js';

/**
 * Opens the store `storeUrl` names: `sqlite://<path>` (relative paths from the working directory),
 * `postgres://…` (shared by any number of processes), or `memory://` (an SQLite database in memory: nothing
 * kept; tests).
 * @param clock the clock used for record timestamps; tests pass their own.
 */
export function openStore(storeUrl: string, clock: () => number = Date.now, logger?: Logger): Promise<Store> {
  if (/^postgres(ql)?:\/\//.test(storeUrl)) return openPostgresStore(storeUrl, clock, logger);
  if (storeUrl === 'memory://' || storeUrl === 'memory') return Promise.resolve(openSqliteStore(':memory:', clock));
  if (storeUrl.startsWith('sqlite://')) {
    try {
      return Promise.resolve(openSqliteStore(storeUrl.slice('sqlite://'.length), clock));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }
  return Promise.reject(new Error(`unsupported STORE_URL scheme: ${storeUrl.split(':')[0] ?? ''}`));
}
