import { chmodSync, closeSync, openSync, statSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const modeOf = (file: string) => (statSync(file).mode & 0o777).toString(8);

async function writeAHook(storeUrl: string) {
  const store = await openStore(storeUrl, STORE_MODULES);
  cleanups.push(() => store.close());
  await store.hooks.save({
    hookId: '0123456789abcdef0123456789abcdef',
    guildId: '222222222222222222',
    webhookId: 'wh_1',
    secret: 'whsec_kept_in_the_file_0123',
    events: ['all'],
    createdAt: 1,
  });
}

describe('the SQLite store file', () => {
  it('is created readable by its owner only, with its -wal and -shm', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const previous = process.umask(0o022);
    cleanups.push(() => process.umask(previous));
    const file = `${dir.path}/data/bot.sqlite`;

    await writeAHook(`sqlite://${file}`);
    expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual(['600', '600', '600']);
  });

  it('is narrowed to its owner when an older version left it readable by others', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const file = `${dir.path}/bot.sqlite`;
    for (const name of [file, `${file}-wal`, `${file}-shm`]) {
      closeSync(openSync(name, 'a'));
      chmodSync(name, 0o644);
    }

    await writeAHook(`sqlite://${file}`);
    expect([modeOf(file), modeOf(`${file}-wal`), modeOf(`${file}-shm`)]).toEqual(['600', '600', '600']);
  });
});
