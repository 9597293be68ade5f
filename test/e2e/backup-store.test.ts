import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { openStore, type Store } from '../../src/store/open-store.js';
import { STORE_FILE_MODE } from '../../src/store/sqlite/restrict-file-modes.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const SCRIPT = new URL('../../scripts/backup-store.ts', import.meta.url).pathname;
// Resolved here, not from the child's working directory: the .env test runs it in a folder with no node_modules.
const TSX = import.meta.resolve('tsx');
const HOOK = {
  hookId: 'a'.repeat(32),
  guildId: '111111111111111111',
  webhookId: 'wh_1',
  secret: 'whsec_backup_0123456789',
  events: ['all'],
  createdAt: 1,
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run backup -- <args>` as launch.js runs it, on the sources; the environment holds nothing of this one's. */
/**
 * Root reads any file whatever its mode (CAP_DAC_OVERRIDE): as root, the backup runs without that capability
 * (util-linux's setpriv), so a store file of mode 000 is refused to it as to another user. Running it as another
 * user (nobody) instead would need the checkout and Node to be reachable by that user, which a CI's temporary
 * folders (0700) are not.
 */
const AS_ANOTHER_USER = ['--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-dac_override,-dac_read_search'];

function backup(args: string[], env: Record<string, string>, cwd?: string, asAnotherUser = false): Promise<Outcome> {
  const command = [process.execPath, '--import', TSX, SCRIPT, ...args];
  const [file, ...rest] =
    asAnotherUser && process.getuid?.() === 0 ? ['setpriv', ...AS_ANOTHER_USER, '--', ...command] : command;
  return run(file ?? process.execPath, rest, {
    env: { PATH: process.env.PATH ?? '', ...env },
    ...(cwd === undefined ? {} : { cwd }),
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Outcome) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

let dir: ReturnType<typeof makeTempDir>;
let storeFile: string;
let store: Store;

beforeEach(async () => {
  dir = makeTempDir('bridge-backup-');
  storeFile = join(dir.path, 'data', 'bot.sqlite');
  // Open as the running bot holds it: the single-process lock taken, WAL on.
  store = await openStore(`sqlite://${storeFile}`, STORE_MODULES);
  await store.hooks.save(HOOK);
  await store.guilds.update(HOOK.guildId, (settings) => ({ ...settings, defaultChannelId: '222222222222222222' }));
});

afterEach(async () => {
  await store.close();
  dir.remove();
});

describe('npm run backup', () => {
  it('copies the SQLite store while it is open and being written, into a private, self-contained file', async () => {
    const destination = join(dir.path, 'bot-backup.sqlite');
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) await store.documents.update('backup-test', `doc-${written++}`, () => ({ at: written }));
    })();
    const outcome = await backup([destination], { STORE_URL: `sqlite://${storeFile}` });
    writing = false;
    await writes;

    expect(outcome.stderr).toBe('');
    expect(outcome.stdout).toMatch(/^backup: wrote \/\S+\/bot-backup\.sqlite \(\d+\.\d MB, checked\) in \d+ ms\n$/);
    expect(outcome.code).toBe(0);
    expect(written).toBeGreaterThan(0);
    expect(statSync(destination).mode & 0o777).toBe(STORE_FILE_MODE);
    // No -wal beside it to carry along: the file alone is the backup.
    expect(existsSync(`${destination}-wal`)).toBe(false);
    expect(existsSync(`${destination}.partial`)).toBe(false);

    const restored = await openStore(`sqlite://${destination}`, STORE_MODULES);
    try {
      expect(await restored.hooks.get(HOOK.hookId)).toEqual(HOOK);
      expect((await restored.guilds.get(HOOK.guildId)).defaultChannelId).toBe('222222222222222222');
      // One moment of the store: the documents written before it, in order, none missing in between.
      const keys = (await restored.documents.list('backup-test')).map((record) => Number(record.key.slice(4)));
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.toSorted((a, b) => a - b)).toEqual(keys.map((_, index) => index));
    } finally {
      await restored.close();
    }
  });

  it('reads STORE_URL from .env in the working directory, as the bot does', async () => {
    writeFileSync(join(dir.path, '.env'), 'STORE_URL=sqlite://data/bot.sqlite\n');
    mkdirSync(join(dir.path, 'backups'));
    const outcome = await backup(['backups/today.sqlite'], {}, dir.path);
    expect(outcome.code).toBe(0);
    const restored = await openStore(`sqlite://${join(dir.path, 'backups', 'today.sqlite')}`, STORE_MODULES);
    try {
      expect(await restored.hooks.get(HOOK.hookId)).toEqual(HOOK);
    } finally {
      await restored.close();
    }
  });

  it("makes the folder a first backup names (a fresh install's backups/), readable by its owner only", async () => {
    writeFileSync(join(dir.path, '.env'), 'STORE_URL=sqlite://data/bot.sqlite\n');
    const outcome = await backup(['backups/before-upgrade/today.sqlite'], {}, dir.path);
    expect(outcome.stderr).toBe('');
    expect(outcome.code).toBe(0);
    expect(statSync(join(dir.path, 'backups')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir.path, 'backups', 'before-upgrade')).mode & 0o777).toBe(0o700);
    const restored = await openStore(
      `sqlite://${join(dir.path, 'backups', 'before-upgrade', 'today.sqlite')}`,
      STORE_MODULES,
    );
    try {
      expect(await restored.hooks.get(HOOK.hookId)).toEqual(HOOK);
    } finally {
      await restored.close();
    }
  });

  it("says in one line to run it as the store's owner when this user cannot open the store", async () => {
    const destination = join(dir.path, 'elsewhere', 'copy.sqlite');
    // Another user than the store's (the bot's) has no access to its file (0600 as the bot keeps it; 000 here, so
    // that this user is refused too).
    chmodSync(storeFile, 0o000);
    try {
      const outcome = await backup([destination], { STORE_URL: `sqlite://${storeFile}` }, undefined, true);
      expect(outcome.code).toBe(1);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr).toMatch(
        new RegExp(
          `^backup: this user \\(uid \\d+\\) cannot open the store ${storeFile}: run the backup as the user that ` +
            'owns .+ \\(uid \\d+\\), the user the bot runs as, e.g. `sudo -u bridge node scripts/launch.js backup ' +
            '<file>` \\(docs/hosting.md, "Upgrading"\\)\n$',
        ),
      );
      expect(existsSync(destination)).toBe(false);
    } finally {
      chmodSync(storeFile, STORE_FILE_MODE);
    }
  });

  it('refuses a PostgreSQL store in one line naming pg_dump, without its URL', async () => {
    const destination = join(dir.path, 'nothing.sqlite');
    const outcome = await backup([destination], { STORE_URL: 'postgres://bridge:hunter2@db.example.test/bridge' });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      'backup: STORE_URL names PostgreSQL: back it up with pg_dump (docs/operations.md, "Backing up PostgreSQL")\n',
    );
    expect(outcome.stdout).toBe('');
    expect(existsSync(destination)).toBe(false);
  });

  it('says what is wrong when no file is named, or the store is not there', async () => {
    const usage = await backup([], { STORE_URL: `sqlite://${storeFile}` });
    expect(usage.code).toBe(2);
    expect(usage.stderr).toMatch(/^backup: name one file to write the backup to\nusage: npm run backup -- <file>/);

    const missing = await backup([join(dir.path, 'copy.sqlite')], { STORE_URL: `sqlite://${dir.path}/none.sqlite` });
    expect(missing).toEqual({
      code: 1,
      stdout: '',
      stderr: `backup: there is no store at ${dir.path}/none.sqlite (STORE_URL)\n`,
    });
  });
});
