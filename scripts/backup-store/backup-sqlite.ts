import {
  accessSync,
  closeSync,
  constants,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
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
  requireStoreAccess(source);
  if (!existsSync(source)) throw new Error(`there is no store at ${source} (STORE_URL)`);
  if (file === source) throw new Error('the backup cannot be the store itself: name another file');
  // A first backup names a folder nobody made yet (backups/ on a fresh install): made here, private as the copy.
  mkdirSync(dirname(file), { recursive: true, mode: BACKUP_FOLDER_MODE });

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

/** A folder of backups holds what the store holds: only its owner may open it. */
const BACKUP_FOLDER_MODE = 0o700;

/**
 * The store and its folder are the bot's user's, readable by it alone (0600): another user, root aside, cannot
 * open them (SQLite needs the folder writable too, for the -shm file of a store in WAL mode). Said in one line
 * naming who owns the store, rather than SQLite's "unable to open database file".
 */
function requireStoreAccess(source: string): void {
  const checks: Array<[string, number]> = [
    [dirname(source), constants.W_OK | constants.X_OK],
    [source, constants.R_OK | constants.W_OK],
  ];
  for (const [path, mode] of checks) {
    try {
      accessSync(path, mode);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw new Error(
        `this user (uid ${String(process.getuid?.())}) cannot open the store ${source}: run the backup as the user ` +
          `that owns ${path}${ownerOf(path)}, the user the bot runs as, e.g. ` +
          '`sudo -u bridge node scripts/launch.js backup <file>` (docs/hosting.md, "Upgrading")',
      );
    }
  }
}

/** ` (uid N)` of the file's owner, or nothing where this user cannot even see it. */
function ownerOf(path: string): string {
  try {
    return ` (uid ${String(statSync(path).uid)})`;
  } catch {
    return '';
  }
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
