import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { createSecretBox } from '../../src/store/secret-box.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { PACKAGE_VERSION } from '../helpers/package-version.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const SECRET = 'whsec_main_process_0123456789';

/**
 * The node flags `npm start` gives the bot (package.json: `node <flags> scripts/launch.js bot`): the process runs as
 * in production, its V8 and WebAssembly settings included.
 */
const START_FLAGS = (() => {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const flags = /^node((?:\s+--\S+)*)\s+scripts\/launch\.js bot$/.exec(pkg.scripts.start)?.[1];
  if (flags === undefined)
    throw new Error(`npm start is not "node <flags> scripts/launch.js bot": ${pkg.scripts.start}`);
  return flags.split(/\s+/).filter(Boolean);
})();
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Collects a child's JSON log lines and resolves when one matches. */
function watchLogs(stream: NodeJS.ReadableStream) {
  const lines: Array<Record<string, unknown>> = [];
  let buffer = '';
  const waiters: Array<{
    test: (line: Record<string, unknown>) => boolean;
    resolve: (line: Record<string, unknown>) => void;
  }> = [];
  stream.on('data', (chunk: Buffer) => {
    buffer += chunk.toString('utf8');
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.trim()) continue;
      const line = JSON.parse(part) as Record<string, unknown>;
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.test(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    }
  });
  const waitFor = (msg: string, timeoutMs = 20_000) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const found = lines.find((line) => line.msg === msg);
      if (found) return resolve(found);
      const timer = setTimeout(() => reject(new Error(`no "${msg}" log line in ${timeoutMs} ms`)), timeoutMs);
      waiters.push({ test: (line) => line.msg === msg, resolve: (line) => (clearTimeout(timer), resolve(line)) });
    });
  return { lines, waitFor };
}

describe('npm start (src/main.ts) as a process', () => {
  it('serves, posts, and on SIGTERM finishes what it holds, closes the store and exits 0', async () => {
    const { discord, channelId, storeUrl, hookId } = await setUpGuild();

    const child = startMain(discord, storeUrl);
    const logs = watchLogs(child.stdout);
    const listening = await logs.waitFor('intake listening');
    await logs.waitFor('Discord gateway ready');
    // The first line says what runs: the version (CHANGELOG.md's) and the Node.
    expect(logs.lines[0]).toMatchObject({
      level: 30,
      msg: 'service-discord-bridge starting',
      version: PACKAGE_VERSION,
      node: process.version,
    });
    const health = (await (await fetch(`http://127.0.0.1:${String(listening.port)}/healthz`)).json()) as object;
    expect(health).toMatchObject({ status: 'ok', version: PACKAGE_VERSION });

    const body = JSON.stringify(SAMPLE_DELIVERIES['case.created']);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const answer = await fetch(`http://127.0.0.1:${String(listening.port)}/webhooks/${hookId}`, {
      method: 'POST',
      headers: { 'x-service-timestamp': timestamp, 'x-service-signature': signDelivery(SECRET, timestamp, body) },
      body,
    });
    expect(answer.status).toBe(204);
    await discord.waitForMessages(channelId, 1, 10_000);

    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
    expect(logs.lines.map((line) => line.msg)).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    expect(JSON.stringify(logs.lines)).not.toContain(SECRET);

    const after = await openStore(storeUrl, STORE_MODULES);
    expect(await after.deliveries.countOpen()).toBe(0);
    expect(await after.deliveries.stateOf(hookId, SAMPLE_DELIVERIES['case.created'].id)).toBe('posted');
    await after.close();
    expect(discord.messages(channelId)).toHaveLength(1);
  }, 60_000);

  it('reads DISCORD_TOKEN and SECRET_KEY from files: logs in, and neither value is in its environment', async () => {
    const { dir, discord, storeUrl } = await setUpGuild();
    const secretKey = 'secret-key-from-a-file-0123456789';
    writeFileSync(join(dir.path, 'discord_token'), `${discord.botToken}\n`, { mode: 0o600 });
    writeFileSync(join(dir.path, 'secret_key'), `${secretKey}\n`, { mode: 0o600 });
    const child = startMain(discord, storeUrl, {
      DISCORD_TOKEN: '',
      DISCORD_TOKEN_FILE: join(dir.path, 'discord_token'),
      SECRET_KEY_FILE: join(dir.path, 'secret_key'),
    });
    const logs = watchLogs(child.stdout);
    // Discord took the token read from the file (the fake refuses any other), and the stored secrets were sealed.
    await logs.waitFor('Discord gateway ready');
    expect(logs.lines.find((line) => line.msg === 'sealed stored secrets with SECRET_KEY')).toMatchObject({
      webhookSecrets: 1,
    });
    // What `docker inspect` and /proc show of the process: the files' paths, never what they hold.
    const environment = readFileSync(`/proc/${String(child.pid)}/environ`, 'utf8');
    expect(environment).toContain(`DISCORD_TOKEN_FILE=${join(dir.path, 'discord_token')}`);
    expect(environment).not.toContain(discord.botToken);
    expect(environment).not.toContain(secretKey);
    expect(JSON.stringify(logs.lines)).not.toContain(discord.botToken);
    child.kill('SIGTERM');
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  }, 60_000);

  it('refuses a second process on the same SQLite file with one line and exit 1; the first keeps every delivery', async () => {
    const { dir, discord, channelId, storeUrl, hookId } = await setUpGuild();

    const first = startMain(discord, storeUrl);
    const logs = watchLogs(first.stdout);
    const listening = await logs.waitFor('intake listening');
    await logs.waitFor('Discord gateway ready');

    const second = startMain(discord, storeUrl);
    let stderr = '';
    second.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(second, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `Cannot start: another process is already using ${dir.path}/bot.sqlite: stop it first (two bot processes on one SQLite file would post events twice); to run several processes, use PostgreSQL (STORE_URL=postgres://…)`,
    ]);

    const body = JSON.stringify(SAMPLE_DELIVERIES.modcall);
    const timestamp = String(Math.floor(Date.now() / 1000));
    const answer = await fetch(`http://127.0.0.1:${String(listening.port)}/webhooks/${hookId}`, {
      method: 'POST',
      headers: { 'x-service-timestamp': timestamp, 'x-service-signature': signDelivery(SECRET, timestamp, body) },
      body,
    });
    expect(answer.status).toBe(204);
    await discord.waitForMessages(channelId, 1, 10_000);
    first.kill('SIGTERM');
    expect(((await once(first, 'exit')) as [number | null])[0]).toBe(0);
  }, 60_000);

  it('stops with one line and exit 1 when Discord refuses the token at start', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const discord: FakeDiscord = await startFakeDiscord();
    cleanups.push(() => discord.close());
    discord.failRequests({ status: 401 });
    const child = startMain(discord, `sqlite://${dir.path}/bot.sqlite`);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Cannot start: Discord refused DISCORD_TOKEN (401): reset the token in the Discord developer portal (your app → Bot → Reset Token) and put the new one in .env',
    ]);
    expect(stderr).not.toContain(discord.botToken);
  }, 30_000);

  it('stops with one line naming SECRET_KEY and exit 1 when SECRET_KEY is not the key the secrets were sealed with', async () => {
    const { discord, storeUrl, hookId } = await setUpGuild();
    const sealedWith = 'the-key-it-was-sealed-with-0123';
    const wrongKey = 'a-changed-secret-key-0123456789';
    const store = await openStore(storeUrl, STORE_MODULES);
    const hook = await store.hooks.get(hookId);
    if (!hook) throw new Error('no hook');
    await store.hooks.save({ ...hook, secret: createSecretBox(sealedWith).seal(SECRET) });
    await store.close();

    const child = startMain(discord, storeUrl, { SECRET_KEY: wrongKey });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const logs = watchLogs(child.stdout);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      'Cannot start: 1 stored secret(s) cannot be opened with this SECRET_KEY: it is not the key they were sealed with. Set SECRET_KEY back to that key and start again (a key lost for good: npm run forget-lost-secrets)',
    ]);
    for (const secret of [SECRET, sealedWith, wrongKey]) {
      expect(stderr).not.toContain(secret);
      expect(JSON.stringify(logs.lines)).not.toContain(secret);
    }
  }, 30_000);

  it('stops with one line naming PostgreSQL, its host:port and STORE_URL, and exit 1, when nothing listens there', async () => {
    const discord: FakeDiscord = await startFakeDiscord();
    cleanups.push(() => discord.close());
    const port = await findClosedPort();
    const password = 'store-password-0123456789';

    const child = startMain(discord, `postgres://bridge:${password}@127.0.0.1:${port}/bridge`);
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const logs = watchLogs(child.stdout);
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toEqual([
      `Cannot start: cannot connect to PostgreSQL at 127.0.0.1:${port} (ECONNREFUSED): check that the server runs and accepts connections there, and STORE_URL`,
    ]);
    // The log says which version started, and nothing else: the reason is the one line above.
    expect(logs.lines.map((line) => line.msg)).toEqual(['service-discord-bridge starting']);
    expect(stderr).not.toContain(password);
    expect(JSON.stringify(logs.lines)).not.toContain(password);
  }, 30_000);
});

/** A local port nothing listens on: one the system just gave out and took back. */
async function findClosedPort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

/** A fake Discord with one guild, and a store file set up as an admin would have: a hook, a default channel. */
async function setUpGuild() {
  const dir = makeTempDir();
  cleanups.push(() => dir.remove());
  const discord: FakeDiscord = await startFakeDiscord();
  cleanups.push(() => discord.close());
  const guild = discord.addGuild({ channels: [{ name: 'feed' }] });
  const channelId = guild.channels.feed ?? '';
  const storeUrl = `sqlite://${dir.path}/bot.sqlite`;
  const hookId = randomBytes(16).toString('hex');
  const setup = await openStore(storeUrl, STORE_MODULES);
  await setup.hooks.save({
    hookId,
    guildId: guild.id,
    webhookId: 'wh_1',
    secret: SECRET,
    events: ['all'],
    createdAt: 1,
  });
  await setup.guilds.update(guild.id, (s) => ({ ...s, defaultChannelId: channelId }));
  await setup.close();
  return { dir, discord, guild, channelId, storeUrl, hookId };
}

/** `npm start`'s entry as a child process with its node flags, against the fake Discord and the given store. */
function startMain(discord: FakeDiscord, storeUrl: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [...START_FLAGS, '--import', 'tsx', 'src/main.ts'], {
    env: {
      PATH: process.env.PATH ?? '',
      DISCORD_TOKEN: discord.botToken,
      DISCORD_API_URL: discord.apiUrl,
      PUBLIC_URL: 'https://bot.example.test',
      SERVICE_URL: 'https://service.example.test',
      STORE_URL: storeUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
  });
  return child;
}
