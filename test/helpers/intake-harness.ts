import { randomBytes } from 'node:crypto';

import { startBot, type RunningBot } from '../../src/bot.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { captureLogs } from './capture-logs.js';
import { makeTempDir } from './temp-dir.js';
import { testConfig } from './test-config.js';

export const HOOK_SECRET = 'whsec_test_secret_0123456789abcdef';
export const GUILD_ID = '111111111111111111';

/** A bot serving the intake on 127.0.0.1:0 with a real SQLite file and one registered hook. */
export interface IntakeHarness {
  bot: RunningBot;
  hookId: string;
  dbFile: string;
  logs: ReturnType<typeof captureLogs>;
  /** The moment the bot believes it is, in ms; tests move it. */
  now: { ms: number };
  /** POSTs to /webhooks/<hookId> (or another path) with exactly these headers and body. */
  post(body: string | Buffer, headers: Record<string, string>, hookId?: string): Promise<Response>;
  /** POSTs a correctly signed delivery, with the timestamp of the bot's clock unless given. */
  postSigned(body: string | Buffer, options?: { timestamp?: string; secret?: string }): Promise<Response>;
  restart(): Promise<void>;
  stop(): Promise<void>;
}

export async function startIntakeHarness(): Promise<IntakeHarness> {
  const dir = makeTempDir();
  const dbFile = `${dir.path}/bot.sqlite`;
  const now = { ms: Date.UTC(2026, 10, 21, 12, 0, 0) };
  const logs = captureLogs();
  const hookId = randomBytes(16).toString('hex');
  const start = () =>
    startBot({
      config: testConfig({ STORE_URL: `sqlite://${dbFile}` }),
      logger: logs.logger,
      clock: () => now.ms,
      host: '127.0.0.1',
      feed: false,
    });
  let bot = await start();
  await bot.store.hooks.save({
    hookId,
    guildId: GUILD_ID,
    webhookId: 'wh_1',
    secret: HOOK_SECRET,
    events: ['all'],
    createdAt: now.ms,
  });

  const harness: IntakeHarness = {
    get bot() {
      return bot;
    },
    hookId,
    dbFile,
    logs,
    now,
    post: (body, headers, target = hookId) =>
      fetch(`${bot.http.url}/webhooks/${target}`, { method: 'POST', headers, body }),
    postSigned(body, options = {}) {
      const timestamp = options.timestamp ?? String(Math.floor(now.ms / 1000));
      return harness.post(body, {
        'content-type': 'application/json',
        'x-service-event': 'test',
        'x-service-timestamp': timestamp,
        'x-service-signature': signDelivery(options.secret ?? HOOK_SECRET, timestamp, body),
      });
    },
    async restart() {
      await bot.stop();
      bot = await start();
    },
    async stop() {
      await bot.stop();
      dir.remove();
    },
  };
  return harness;
}
