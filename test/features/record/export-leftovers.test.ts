import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { EXPORT_LEFT_AFTER_MS, removeLeftExports } from '../../../src/features/record/export-leftovers.js';
import { writeExportFiles } from '../../../src/features/record/export-record.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

/** Two lines of an export, as an AsyncIterable: an array's async iterator is what writeExportFiles reads. */
function lines(): AsyncIterable<string> {
  const text = ['case,player\n', '1,SpeedyRacer_09\n'];
  return {
    [Symbol.asyncIterator]: () => {
      const it = text[Symbol.iterator]();
      return { next: () => Promise.resolve(it.next()) };
    },
  };
}

/** Sets a folder's times `ago` ms before `now`, as a folder left that long ago has. */
function age(path: string, now: number, ago: number): void {
  const when = new Date(now - ago);
  utimesSync(path, when, when);
}

/**
 * An export's files are removed once sent (export-record.ts); a process killed while it sent leaves its folder in the
 * temporary folder. The next start and the hourly sweep remove such folders, an export being sent now excepted.
 */
describe('export folders left behind', () => {
  let tmp: ReturnType<typeof makeTempDir>;
  let previous: string | undefined;
  beforeEach(() => {
    tmp = makeTempDir('bridge-tmp-');
    previous = process.env.TMPDIR;
    // os.tmpdir() reads TMPDIR: the export writes where a host's temporary folder would be.
    process.env.TMPDIR = tmp.path;
  });
  afterEach(() => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    tmp.remove();
  });

  it("removes a killed export's folder with its files, keeps one being sent and anything else", async () => {
    const now = Date.now();
    // Killed while it sent: written, never disposed.
    const left = await writeExportFiles(lines(), 'cases', { partBytes: 1024, maxParts: 2 });
    const sending = await writeExportFiles(lines(), 'shifts', { partBytes: 1024, maxParts: 2 });
    if (left.outcome !== 'written' || sending.outcome !== 'written') throw new Error('nothing written');
    const leftFolder = join(left.parts[0]?.path ?? '', '..');
    expect(readdirSync(leftFolder)).toEqual(['1.csv']);
    age(leftFolder, now, EXPORT_LEFT_AFTER_MS + 1);
    // An earlier version's folder, as old; and folders that are no export's, as old.
    const earlier = join(tmp.path, 'export-modcalls-Ab12Cd');
    const notOurs = join(tmp.path, 'export-photos-Ab12Cd');
    const other = join(tmp.path, 'someone-else');
    for (const folder of [earlier, notOurs, other]) {
      mkdirSync(folder);
      writeFileSync(join(folder, '1.csv'), 'x');
      age(folder, now, 2 * EXPORT_LEFT_AFTER_MS);
    }

    expect(await removeLeftExports(now)).toBe(2);
    expect(existsSync(leftFolder)).toBe(false);
    expect(existsSync(earlier)).toBe(false);
    expect(existsSync(join(sending.parts[0]?.path ?? ''))).toBe(true);
    expect(existsSync(notOurs)).toBe(true);
    expect(existsSync(other)).toBe(true);
    await sending.dispose();
  });
});
