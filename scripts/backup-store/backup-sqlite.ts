import { closeSync, existsSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';

import { STORE_FILE_MODE } from '../../src/store/sqlite/restrict-file-modes.js';

export interface SqliteBackup {
  /** The backup file's absolute path. */
  file: string;
  bytes: number;
}

/**
 * Copies the SQLite store `storeFile` to `destination` with SQLite's online backup, while the bot may be running
 * and writing: the copy is one moment of the store, whatever the bot commits meanwhile (WAL lets it go on). The
 * copy is made beside the destination, checked, and only then renamed over it, so a backup cut short never
 * replaces a good one.
 */
export async function backupSqliteFile(storeFile: string, destination: string): Promise<SqliteBackup> {
  const source = resolve(storeFile);
  const file = resolve(destination);
  if (!existsSync(source)) throw new Error(`there is no store at ${source} (STORE_URL)`);
  if (file === source) throw new Error('the backup cannot be the store itself: name another file');
  if (!existsSync(dirname(file))) throw new Error(`the folder ${dirname(file)} does not exist: create it first`);

  const partial = `${file}.partial`;
  // The copy holds what the store holds (secrets among it): only the bot's user may read it, as the store.
  closeSync(openSync(partial, 'w', STORE_FILE_MODE));
  // Never written through: opened read-write only because a read-only connection to a WAL database needs its
  // -shm file writable anyway.
  const store = new Database(source, { fileMustExist: true, timeout: 5000 });
  try {
    // Every page in one step: a step is one read transaction, so the copy is one moment of the store. Smaller
    // steps would start again each time the bot's process commits in between, and might never finish.
    await store.backup(partial, { progress: () => 0x7fffffff });
    checkBackup(partial);
    renameSync(partial, file);
  } finally {
    store.close();
    rmSync(partial, { force: true });
  }
  return { file, bytes: statSync(file).size };
}

/**
 * Checks the copy and makes it one self-contained file: the store runs in WAL mode, which a restored copy would
 * otherwise expect beside it (`-wal`, `-shm`); the bot turns WAL on again when it opens the restored file.
 */
function checkBackup(file: string): void {
  const copy = new Database(file, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const result = copy.pragma('quick_check', { simple: true });
    if (result !== 'ok') throw new Error(`the copy failed SQLite's check (${String(result)}); nothing was written`);
  } finally {
    copy.close();
  }
}
