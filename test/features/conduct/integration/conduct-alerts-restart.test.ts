import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../../../fakes/discord/index.js';
import { conductModule } from '../../../../src/features/conduct/store/conduct-module.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { openStore } from '../../../../src/store/open-store.js';
import { createTestDatabase, POSTGRES_URL } from '../../../helpers/postgres-database.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';
import { deliver, fiveBans, MINUTE, recordAndJudge } from './conduct-scene.js';

/*
 * One alert per incident across a kill -9: the process syncing the conduct alerts is SIGKILLed while Discord holds
 * its post (the message is made, the answer never read, the store never told), and another process takes over.
 * Within Discord's nonce window the post is sent again under the nonce written down before it; past it, the earlier
 * post is found by its footer. Either way the channel has one alert, and the store names it.
 */

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function until(done: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The alerts' sync in a process of its own; `idle` once a pass found no alert behind. */
function alertsProcess(storeUrl: string, discord: FakeDiscord, nonceWindowMs: number) {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'test/features/conduct/integration/conduct-alerts-process.ts'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        STORE_URL: storeUrl,
        DISCORD_API_URL: discord.apiUrl,
        DISCORD_TOKEN: discord.botToken,
        NONCE_WINDOW_MS: String(nonceWindowMs),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const state = { idle: false, child };
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    if (chunk.toString('utf8').includes('idle')) state.idle = true;
  });
  return state;
}

const ENGINES = [
  {
    name: 'SQLite',
    skip: false,
    url: () => {
      const dir = makeTempDir('conduct-restart-');
      cleanups.push(() => dir.remove());
      return Promise.resolve(`sqlite://${dir.path}/store.sqlite`);
    },
  },
  {
    name: 'PostgreSQL',
    skip: !POSTGRES_URL,
    url: async () => {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      return database.url;
    },
  },
];

describe.each(ENGINES)('a conduct alert whose process was killed mid-post, on $name', (engine) => {
  it.skipIf(engine.skip).each([
    { when: 'within the nonce window', nonceWindowMs: 60_000, waitMs: 0 },
    { when: 'past the nonce window', nonceWindowMs: 300, waitMs: 600 },
  ])(
    'is posted once when another process takes over $when',
    async ({ nonceWindowMs, waitMs }) => {
      const discord = await startFakeDiscord({ nonceWindowMs });
      cleanups.push(() => discord.close());
      const guild = discord.addGuild({ channels: [{ name: 'conduct' }] });
      const channelId = guild.channels['conduct'] ?? '';
      const url = await engine.url();

      // A burst of bans, judged: one finding whose alert is not posted yet. The store is closed before the
      // processes open it (SQLite takes one process at a time).
      const store = await openStore(url, STORE_MODULES);
      await store.of(conductModule).setChannel(guild.id, channelId);
      await deliver(store, guild.id, fiveBans(Date.now() - 30 * MINUTE));
      await recordAndJudge(store);
      const [finding] = await store.of(conductModule).findingsOf(guild.id, 10);
      expect(finding?.hits).toHaveLength(5);
      await store.close();

      // Discord holds the post; the process dies while it waits; Discord then makes the message.
      const messagesPath = new RegExp(`^/channels/${channelId}/messages$`);
      discord.hangRequests({ count: 1, match: messagesPath, afterwards: 'answer' });
      const first = alertsProcess(url, discord, nonceWindowMs);
      await until(
        () => discord.requests.some((request) => request.method === 'POST' && messagesPath.test(request.path)),
        20_000,
        'the post to reach Discord',
      );
      first.child.kill('SIGKILL');
      await once(first.child, 'exit');
      discord.clearFaults();
      await discord.waitForMessages(channelId, 1);
      await new Promise((resolve) => setTimeout(resolve, waitMs));

      const second = alertsProcess(url, discord, nonceWindowMs);
      await until(() => second.idle, 20_000, 'the second process to bring the alert up to date');
      second.child.kill('SIGKILL');
      await once(second.child, 'exit');

      const messages = discord.messages(channelId);
      expect(messages.map((message) => message.embeds[0]?.footer?.text)).toEqual([`Conduct guard · ${finding?.id}`]);
      const reopened = await openStore(url, STORE_MODULES);
      cleanups.push(() => reopened.close());
      const stored = await reopened.of(conductModule).finding(guild.id, finding?.id ?? '');
      expect(stored?.message?.messageId).toBe(messages[0]?.id);
      expect(stored?.syncedVersion).toBe(stored?.version);
    },
    60_000,
  );
});
