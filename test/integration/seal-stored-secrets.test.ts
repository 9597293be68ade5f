import { afterEach, describe, expect, it } from 'vitest';

import { StartupError } from '../../src/base/startup-error.js';
import { startBot } from '../../src/bot.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { appDocumentsOn } from '../../src/features/releases/app-documents-on.js';
import { openStore } from '../../src/store/open-store.js';
import { createSecretBox } from '../../src/store/secret-box.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { testConfig } from '../helpers/test-config.js';

const GUILD = '222222222222222222';
const HOOK_ID = '0123456789abcdef0123456789abcdef';
const WEBHOOK_SECRET = 'whsec_plain_before_secret_key_0123';
const SERVER_KEY = 'usk_plain_server_key_0123456789';
const DEVELOPER_KEY = 'upk_plain_developer_key_0123456789';
const SECRET_KEY = 'the-first-secret-key-0123456789';
const OTHER_KEY = 'a-different-secret-key-0123456789';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const engines = [
  {
    name: 'SQLite',
    skip: false,
    storeUrl: () => {
      const dir = makeTempDir();
      cleanups.push(() => dir.remove());
      return Promise.resolve(`sqlite://${dir.path}/bot.sqlite`);
    },
  },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_URL,
    storeUrl: async () => {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      return database.url;
    },
  },
];

/** A store as it was before SECRET_KEY was set: a hook, a server key and a developer key stored as they are. */
async function storeWithPlainSecrets(storeUrl: string): Promise<void> {
  const store = await openStore(storeUrl, STORE_MODULES);
  await store.hooks.save({
    hookId: HOOK_ID,
    guildId: GUILD,
    webhookId: 'wh_1',
    secret: WEBHOOK_SECRET,
    events: ['all'],
    createdAt: 1,
  });
  await store.guilds.update(GUILD, (settings) => ({ ...settings, serverKey: SERVER_KEY }));
  await appDocumentsOn(store.documents).updateGuild(GUILD, (app) => ({ ...app, developerKey: DEVELOPER_KEY }));
  await store.close();
}

async function readStored(storeUrl: string) {
  const store = await openStore(storeUrl, STORE_MODULES);
  try {
    return {
      webhookSecret: (await store.hooks.get(HOOK_ID))?.secret,
      serverKey: (await store.guilds.get(GUILD)).serverKey,
      developerKey: (await appDocumentsOn(store.documents).readGuild(GUILD)).developerKey,
    };
  } finally {
    await store.close();
  }
}

async function start(storeUrl: string, secretKey: string | undefined) {
  const logs = captureLogs('info');
  const bot = await startBot({
    config: testConfig({ STORE_URL: storeUrl, ...(secretKey ? { SECRET_KEY: secretKey } : {}) }),
    logger: logs.logger,
    host: '127.0.0.1',
    feed: false,
  });
  cleanups.push(() => bot.stop());
  return { bot, logs };
}

describe.each(engines)('stored secrets at start ($name)', ({ skip, storeUrl: makeStoreUrl }) => {
  it.skipIf(skip)(
    'seals every plain value once SECRET_KEY is set, logs counts only, and again seals nothing',
    async () => {
      const storeUrl = await makeStoreUrl();
      await storeWithPlainSecrets(storeUrl);

      const first = await start(storeUrl, SECRET_KEY);
      const sealedLine = first.logs.lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.msg === 'sealed stored secrets with SECRET_KEY');
      expect(sealedLine).toMatchObject({ webhookSecrets: 1, serverKeys: 1, developerKeys: 1 });
      for (const secret of [WEBHOOK_SECRET, SERVER_KEY, DEVELOPER_KEY, SECRET_KEY]) {
        expect(first.logs.text()).not.toContain(secret);
      }
      // The intake still verifies with the secret it now holds sealed.
      const body = JSON.stringify(SAMPLE_DELIVERIES.modcall);
      const timestamp = String(Math.floor(Date.now() / 1000));
      const answer = await fetch(`${first.bot.http.url}/webhooks/${HOOK_ID}`, {
        method: 'POST',
        headers: {
          'x-service-timestamp': timestamp,
          'x-service-signature': signDelivery(WEBHOOK_SECRET, timestamp, body),
        },
        body,
      });
      expect(answer.status).toBe(204);
      await first.bot.stop();
      cleanups.pop();

      const stored = await readStored(storeUrl);
      const box = createSecretBox(SECRET_KEY);
      for (const value of Object.values(stored)) expect(value).toMatch(/^sealed:v1:/);
      expect(Object.values(stored).map((value) => box.open(value ?? ''))).toEqual([
        WEBHOOK_SECRET,
        SERVER_KEY,
        DEVELOPER_KEY,
      ]);

      const second = await start(storeUrl, SECRET_KEY);
      expect(second.logs.text()).not.toContain('sealed stored secrets');
      await second.bot.stop();
      cleanups.pop();
      expect(await readStored(storeUrl)).toEqual(stored);
    },
  );

  it.skipIf(skip)(
    'stops at start with one line naming SECRET_KEY when it is not the key values were sealed with',
    async () => {
      const storeUrl = await makeStoreUrl();
      await storeWithPlainSecrets(storeUrl);
      await (await start(storeUrl, SECRET_KEY)).bot.stop();
      cleanups.pop();

      const refusal = startBot({
        config: testConfig({ STORE_URL: storeUrl, SECRET_KEY: OTHER_KEY }),
        logger: captureLogs().logger,
        host: '127.0.0.1',
        feed: false,
      });
      await expect(refusal).rejects.toThrow(StartupError);
      await expect(refusal).rejects.toThrow(
        '3 stored secret(s) cannot be opened with this SECRET_KEY: it is not the key they were sealed with. Set SECRET_KEY back to that key and start again (a key lost for good: npm run forget-lost-secrets)',
      );
      await expect(
        startBot({ config: testConfig({ STORE_URL: storeUrl }), logger: captureLogs().logger, feed: false }),
      ).rejects.toThrow(
        '3 stored secret(s) are sealed, but SECRET_KEY is not set: set the SECRET_KEY they were sealed with and start again (a key lost for good: npm run forget-lost-secrets)',
      );
      // The store was closed on the way out: the right key starts again (SQLite refuses a second holder of the file).
      await (await start(storeUrl, SECRET_KEY)).bot.stop();
      cleanups.pop();
    },
  );
});
