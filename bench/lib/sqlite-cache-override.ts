import { SQLITE_PRAGMAS } from '../../src/store/sqlite/open-sqlite-store.js';

/**
 * BENCH_SQLITE_CACHE_KIB=<n>: the bot's SQLite page cache at n KiB instead of its own, in a benchmark's bot
 * process, so that what the cache holds (better-sqlite3 does not expose sqlite3_memory_used) and what it saves
 * in time can be measured by difference. The last cache_size of SQLITE_PRAGMAS wins. Call before the bot starts.
 */
export function applySqliteCacheOverride(): void {
  const kib = Number(process.env.BENCH_SQLITE_CACHE_KIB ?? '');
  if (kib > 0) SQLITE_PRAGMAS.push(`cache_size = -${kib}`);
}
