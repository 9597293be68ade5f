import { lstat, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folder an export writes its files in, in the system's temporary folder: `bridge-export-<kind>-XXXXXX`. */
export const EXPORT_FOLDER_PREFIX = 'bridge-export-';
/** Earlier versions' export folders: `export-<kind>-` and mkdtemp's six characters. */
const EARLIER_EXPORT_FOLDER = /^export-(cases|shifts|sessions|modcalls)-[A-Za-z0-9]{6}$/;
/**
 * A folder untouched this long is no export being sent: an export answers an interaction, whose token lasts 15
 * minutes. Another process of the bot on the same machine may be sending one now; its folder is younger.
 */
export const EXPORT_LEFT_AFTER_MS = 60 * 60 * 1000;

/**
 * Removes the export folders a process killed while it sent left behind (the normal path removes its own at
 * once): those in `dir` (the system's temporary folder) named as exports are, owned by this process's user,
 * untouched for {@link EXPORT_LEFT_AFTER_MS}. At start and with the hourly sweep; returns how many went. One that
 * cannot be removed is left for the next time, the others removed.
 */
export async function removeLeftExports(now: number, dir: string = tmpdir()): Promise<number> {
  const uid = process.getuid?.();
  let removed = 0;
  for (const name of await readdir(dir)) {
    if (!name.startsWith(EXPORT_FOLDER_PREFIX) && !EARLIER_EXPORT_FOLDER.test(name)) continue;
    const path = join(dir, name);
    try {
      const stats = await lstat(path);
      if (!stats.isDirectory() || (uid !== undefined && stats.uid !== uid)) continue;
      if (stats.mtimeMs > now - EXPORT_LEFT_AFTER_MS) continue;
      await rm(path, { recursive: true, force: true });
      removed += 1;
    } catch {
      // Gone meanwhile, or not ours to remove: the next sweep looks again.
    }
  }
  return removed;
}
