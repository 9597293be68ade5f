import { chmodSync, closeSync, openSync } from 'node:fs';

/**
 * Only the bot's own user may read or write the store: it holds webhook secrets and keys (in clear when
 * SECRET_KEY is not set) and every delivery.
 */
export const STORE_FILE_MODE = 0o600;

/** The files SQLite keeps beside the database in WAL mode; they hold recent writes, secrets included. */
const COMPANIONS = ['-wal', '-shm'];

/**
 * Creates the database file with {@link STORE_FILE_MODE} before SQLite opens it, and narrows the mode of one
 * created by an older version. SQLite creates `-wal` and `-shm` with the database file's mode, so they follow.
 */
export function createPrivateStoreFile(file: string): void {
  closeSync(openSync(file, 'a', STORE_FILE_MODE));
  chmodSync(file, STORE_FILE_MODE);
}

/** Narrows the `-wal` and `-shm` files left by an older version, which SQLite reuses as they are. */
export function restrictCompanionFiles(file: string): void {
  for (const suffix of COMPANIONS) {
    try {
      chmodSync(file + suffix, STORE_FILE_MODE);
    } catch (error) {
      // Absent until SQLite needs them; then it creates them with the database file's mode.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
}
