import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { appDocumentsOn } from '../../src/features/releases/app-documents-on.js';
import { sealStoredSecrets } from '../../src/seal-stored-secrets.js';
import { openStore } from '../../src/store/open-store.js';
import { createSecretBox } from '../../src/store/secret-box.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const run = promisify(execFile);
const SCRIPT = new URL('../../scripts/forget-lost-secrets.ts', import.meta.url).pathname;
const TSX = import.meta.resolve('tsx');
const LOST_KEY = 'the-key-nobody-has-any-more';
const NEW_KEY = 'the-key-set-after-the-loss';
const GUILD = '111111111111111111';
const OTHER_GUILD = '222222222222222222';
const PLAIN = {
  webhookSecret: 'whsec_lost_0123456789',
  serverKey: 'srv_lost_key_0001',
  developerKey: 'upk_lost_key_0001',
};

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

let dir: ReturnType<typeof makeTempDir>;
let storeUrl: string;

/** `npm run forget-lost-secrets -- <args>` as launch.js runs it, on the sources, with SECRET_KEY set to NEW_KEY. */
function forgetLost(args: string[] = []): Promise<Outcome> {
  return run(process.execPath, ['--import', TSX, SCRIPT, ...args], {
    env: { PATH: process.env.PATH ?? '', STORE_URL: storeUrl, SECRET_KEY: NEW_KEY },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: Outcome) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

function storesOf(store: Awaited<ReturnType<typeof openStore>>, key: string) {
  return {
    hooks: store.hooks,
    guilds: store.guilds,
    apps: appDocumentsOn(store.documents),
    secrets: createSecretBox(key),
  };
}

beforeEach(async () => {
  dir = makeTempDir('bridge-lost-secrets-');
  storeUrl = `sqlite://${join(dir.path, 'bot.sqlite')}`;
  // Sealed with a key since lost: a webhook, the server key and the developer key of one server.
  const store = await openStore(storeUrl, STORE_MODULES);
  const lost = createSecretBox(LOST_KEY);
  const current = createSecretBox(NEW_KEY);
  const hook = { guildId: GUILD, events: ['all'], createdAt: 1 };
  await store.hooks.save({
    ...hook,
    hookId: 'a'.repeat(32),
    webhookId: 'wh_lost',
    secret: lost.seal(PLAIN.webhookSecret),
  });
  // Another server's webhook, sealed with the key set now: it stays.
  await store.hooks.save({
    ...hook,
    guildId: OTHER_GUILD,
    hookId: 'b'.repeat(32),
    webhookId: 'wh_kept',
    secret: current.seal('whsec_kept_0123456789'),
  });
  await store.guilds.update(GUILD, (settings) => ({
    ...settings,
    serverKey: lost.seal(PLAIN.serverKey),
    defaultChannelId: '333333333333333333',
  }));
  const apps = appDocumentsOn(store.documents);
  await apps.updateGuild(GUILD, (app) => ({ ...app, developerKey: lost.seal(PLAIN.developerKey), keySetAt: 5 }));
  await store.close();
});

afterEach(() => dir.remove());

describe('npm run forget-lost-secrets', () => {
  it('lists what a lost SECRET_KEY left unreadable, forgets it with --yes so the bot starts, and keeps the rest', async () => {
    // The bot cannot start: the stored secrets do not open with the key set now.
    let store = await openStore(storeUrl, STORE_MODULES);
    await expect(sealStoredSecrets(storesOf(store, NEW_KEY))).rejects.toThrow(/npm run forget-lost-secrets/);
    await store.close();

    const listed = await forgetLost();
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('3 stored secret(s) cannot be opened with this SECRET_KEY');
    expect(listed.stdout).toContain(`server ${GUILD}: webhook wh_lost`);
    expect(listed.stdout).toContain(`server ${GUILD}: server key`);
    expect(listed.stdout).toContain(`server ${GUILD}: developer key`);
    expect(listed.stdout).toContain('nothing changed');
    store = await openStore(storeUrl, STORE_MODULES);
    expect(await store.hooks.listForGuild(GUILD)).toHaveLength(1);
    await store.close();

    const forgotten = await forgetLost(['--yes']);
    expect(forgotten.code).toBe(0);
    expect(forgotten.stdout).toContain('forgot 3 secret(s)');
    expect(forgotten.stdout).toContain('webhook wh_lost removed: run /webhook register there');
    expect(forgotten.stdout).toContain('server key: run /setup there');
    expect(forgotten.stdout).toContain('developer key: run /app key there');

    store = await openStore(storeUrl, STORE_MODULES);
    await expect(sealStoredSecrets(storesOf(store, NEW_KEY))).resolves.toBeDefined();
    expect(await store.hooks.listForGuild(GUILD)).toEqual([]);
    expect((await store.hooks.listForGuild(OTHER_GUILD)).map((hook) => hook.webhookId)).toEqual(['wh_kept']);
    const settings = await store.guilds.get(GUILD);
    expect(settings).toMatchObject({ serverKey: null, defaultChannelId: '333333333333333333' });
    expect(await appDocumentsOn(store.documents).readGuild(GUILD)).toMatchObject({
      developerKey: null,
      keySetAt: null,
    });
    await store.close();

    expect((await forgetLost()).stdout).toContain('nothing to forget');
    // Never a value, sealed or not.
    const said = [listed, forgotten].map((outcome) => outcome.stdout + outcome.stderr).join('\n');
    expect(Object.values(PLAIN).filter((value) => said.includes(value))).toEqual([]);
    expect(said).not.toContain('sealed:');
  });

  it('refuses, changing nothing, while the bot holds the SQLite store', async () => {
    const running = await openStore(storeUrl, STORE_MODULES);
    const outcome = await forgetLost(['--yes']);
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toContain('another process is already using');
    expect(await running.hooks.listForGuild(GUILD)).toHaveLength(1);
    await running.close();
  });
});
