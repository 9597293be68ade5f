import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);

/**
 * Opens the store `storeUrl` names in a fresh Node process, as the bot does at start, and prints which of the two
 * engines' drivers that process loaded: each costs memory for as long as the bot runs.
 */
const OPEN_AND_LIST = `
import { createRequire } from 'node:module';
import { STORE_MODULES } from './src/features/index.ts';
import { openStore } from './src/store/open-store.ts';
const store = await openStore(process.argv[1], STORE_MODULES);
await store.close();
const loaded = Object.keys(createRequire(import.meta.url).cache);
const driver = (name) => loaded.some((path) => path.includes('/node_modules/' + name + '/'));
process.stdout.write(JSON.stringify({ pg: driver('pg'), betterSqlite3: driver('better-sqlite3') }));
`;

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('openStore', () => {
  it('loads only the engine STORE_URL names: a bot on SQLite never loads the PostgreSQL driver', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const { stdout } = await run(process.execPath, [
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      OPEN_AND_LIST,
      `sqlite://${dir.path}/bot.sqlite`,
    ]);
    expect(JSON.parse(stdout)).toEqual({ pg: false, betterSqlite3: true });
  });

  it('refuses a STORE_URL of no engine it knows, naming its scheme and nothing else of it', async () => {
    const refusal = await openStore('mysql://bot:hunter2@db/bot', STORE_MODULES).then(
      () => undefined,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    expect(refusal).toBe('unsupported STORE_URL scheme: mysql');
  });
});
