import { afterEach, describe, expect, it } from 'vitest';

import { createKeyvFactory, type KeyvFactory } from '../../../src/store/keyv-factory.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function openFactory(): { factory: KeyvFactory; file: string } {
  const dir = makeTempDir();
  const file = `${dir.path}/store.sqlite`;
  const factory = createKeyvFactory(`sqlite://${file}`);
  cleanups.push(
    () => dir.remove(),
    () => factory.close(),
  );
  return { factory, file };
}

describe('SQLite writes with group commit', () => {
  it('keeps every one of many concurrent writes, durably across a reopen', async () => {
    const { factory, file } = openFactory();
    const keyv = await factory.open('things');
    await Promise.all(Array.from({ length: 300 }, (_, i) => keyv.set(`k${i}`, { i })));
    await factory.close();

    const reopened = createKeyvFactory(`sqlite://${file}`);
    cleanups.push(() => reopened.close());
    const again = await reopened.open('things');
    const values = await Promise.all(Array.from({ length: 300 }, (_, i) => again.get(`k${i}`)));
    expect(values).toEqual(Array.from({ length: 300 }, (_, i) => ({ i })));
  });

  it('writes concurrent sets of one key in the order they were made, the last one winning', async () => {
    const { factory } = openFactory();
    const keyv = await factory.open('things');
    await Promise.all([keyv.set('a', 1), keyv.set('b', 1), keyv.set('a', 2), keyv.set('a', 3)]);
    expect([await keyv.get('a'), await keyv.get('b')]).toEqual([3, 1]);
    await Promise.all([keyv.delete('a'), keyv.delete('b'), keyv.set('c', 1)]);
    expect([await keyv.get('a'), await keyv.get('b'), await keyv.get('c')]).toEqual([undefined, undefined, 1]);
  });

  it('fails the write, instead of pretending, when the store cannot take it', async () => {
    const { factory } = openFactory();
    const keyv = await factory.open('things');
    await keyv.set('before', 1);
    // What a full disk or a damaged file looks like from here: the table is gone.
    await (keyv.store as { query: (sql: string) => Promise<unknown> }).query('DROP TABLE things');
    await expect(keyv.set('after', 2)).rejects.toThrow(/no such table/);
  });
});
