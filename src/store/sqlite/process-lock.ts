import Database from 'better-sqlite3';

import { StartupError } from '../../base/startup-error.js';

/**
 * Holds `<store file>.lock` for as long as this process runs, with SQLite's own exclusive locking (the
 * operating system releases it the moment the process dies, however it dies). A second bot process on the same
 * file is refused at start: two processes would each think they own the feed and could post twice.
 * The store file itself stays readable by other tools (`sqlite3 … ".backup …"`).
 */
export function lockStoreFile(file: string): { release(): void } {
  const lock = new Database(`${file}.lock`, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock; in EXCLUSIVE locking mode it is kept until the connection closes.
    lock.exec('CREATE TABLE IF NOT EXISTS owner (pid INTEGER); BEGIN EXCLUSIVE; DELETE FROM owner; COMMIT;');
  } catch (error) {
    lock.close();
    if (isBusy(error)) {
      throw new StartupError(
        `another process is already using ${file}: stop it first (two bot processes on one SQLite file would ` +
          'post events twice); to run several processes, use PostgreSQL (STORE_URL=postgres://…)',
      );
    }
    throw error;
  }
  return { release: () => lock.close() };
}

function isBusy(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
