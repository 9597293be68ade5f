import { afterEach, describe, expect, it } from 'vitest';

import { StartupError } from '../../../src/base/startup-error.js';
import { STORE_MODULES } from '../../../src/features/index.js';
import { openStore } from '../../../src/store/open-store.js';
import type { Store } from '../../../src/store/store.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('one process per SQLite file', () => {
  it('refuses a second store on a file in use, with what to do, and allows it once the first closed', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const url = `sqlite://${dir.path}/bot.sqlite`;
    const first: Store = await openStore(url, STORE_MODULES);
    let firstOpen = true;
    cleanups.push(() => (firstOpen ? first.close() : undefined));

    const refusal = await openStore(url, STORE_MODULES).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(StartupError);
    expect((refusal as Error).message).toBe(
      `another process is already using ${dir.path}/bot.sqlite: stop it first (two bot processes on one SQLite file ` +
        'would post events twice); to run several processes, use PostgreSQL (STORE_URL=postgres://…)',
    );

    await first.close();
    firstOpen = false;
    const second = await openStore(url, STORE_MODULES);
    await second.close();
  });
});
