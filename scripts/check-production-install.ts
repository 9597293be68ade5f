/**
 * CI's proof that a production install runs: what the Dockerfile's runtime stage holds (package.json, the lock
 * file, scripts/launch.js with the Node check it runs first, and the built dist/), installed with `npm ci --omit=dev` into a clean folder, started
 * with `npm start` against the fake Discord and the fake service. It must answer /healthz, accept a signed
 * delivery, post it, back its store up with `npm run backup` while it runs, and stop cleanly on SIGTERM. Run by
 * .ci/run; by hand: `npx tsx scripts/check-production-install.ts`.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { startFakeDiscord } from '../fakes/discord/index.js';
import { startFakeService } from '../fakes/service/index.js';
import { STORE_MODULES } from '../src/features/index.js';
import { openStore } from '../src/store/open-store.js';
import { signDelivery } from '../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../test/fixtures/deliveries.js';

const run = promisify(execFile);
const SECRET = 'whsec_production_install_0123456789';
const STEP_TIMEOUT_MS = 30_000;
const root = new URL('..', import.meta.url).pathname;

function step(message: string): void {
  process.stdout.write(`production install: ${message}\n`);
}

async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`not within ${STEP_TIMEOUT_MS / 1000} s: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const copy = mkdtempSync(join(tmpdir(), 'bridge-production-'));
const discord = await startFakeDiscord();
const service = await startFakeService();
try {
  step('npm run build');
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  for (const path of ['package.json', 'package-lock.json', 'scripts/launch.js', 'scripts/check-node.cjs', 'dist']) {
    cpSync(join(root, path), join(copy, path), { recursive: true });
  }
  step(`npm ci --omit=dev in ${copy}`);
  execFileSync('npm', ['ci', '--omit=dev', '--no-audit', '--no-fund'], { cwd: copy, stdio: 'inherit' });

  const guild = discord.addGuild({ channels: [{ name: 'feed' }] });
  const channelId = guild.channels.feed ?? '';
  const hookId = randomBytes(16).toString('hex');
  mkdirSync(join(copy, 'data'));
  const storeUrl = `sqlite://${join(copy, 'data', 'bot.sqlite')}`;
  const store = await openStore(storeUrl, STORE_MODULES);
  await store.hooks.save({
    hookId,
    guildId: guild.id,
    webhookId: 'wh_1',
    secret: SECRET,
    events: ['all'],
    createdAt: 1,
  });
  await store.guilds.update(guild.id, (settings) => ({ ...settings, defaultChannelId: channelId }));
  await store.close();

  step('npm start');
  const bot = spawn('npm', ['start', '--silent'], {
    cwd: copy,
    // A process group of its own: SIGTERM reaches the bot through npm's shell as a host's stop would.
    detached: true,
    env: {
      PATH: process.env.PATH ?? '',
      DISCORD_TOKEN: discord.botToken,
      DISCORD_API_URL: discord.apiUrl,
      PUBLIC_URL: 'https://bot.example.test',
      SERVICE_URL: service.baseUrl,
      STORE_URL: storeUrl,
      PORT: '0',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  bot.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = once(bot, 'exit');
  try {
    const port = await until('the bot listening', () => {
      for (const line of output.split('\n')) {
        if (!line.includes('"intake listening"')) continue;
        const { port } = JSON.parse(line) as { port?: number };
        if (port) return port;
      }
      return undefined;
    });
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    if (health.status !== 200) throw new Error(`/healthz answered ${health.status}: ${await health.text()}`);
    step(`/healthz: ${await health.text()}`);

    const body = JSON.stringify({ ...SAMPLE_DELIVERIES['case.created'], id: 'production-install-1' });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const delivery = await fetch(`http://127.0.0.1:${port}/webhooks/${hookId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-service-timestamp': timestamp,
        'x-service-signature': signDelivery(SECRET, timestamp, body),
      },
      body,
    });
    if (delivery.status !== 204) throw new Error(`the signed delivery was answered ${delivery.status}`);
    await until('the delivery posted in #feed', () =>
      discord
        .messages(channelId)
        .some((message) => message.embeds.some((embed) => embed.footer?.text?.includes('production-install-1')))
        ? true
        : undefined,
    );
    step('a signed delivery was accepted and posted');

    // The online backup runs in a production install too, beside the running bot.
    const backupFile = join(copy, 'data', 'backup.sqlite');
    await run('npm', ['run', 'backup', '--silent', '--', backupFile], {
      cwd: copy,
      env: { PATH: process.env.PATH ?? '', STORE_URL: storeUrl },
    });
    const backup = await openStore(`sqlite://${backupFile}`, STORE_MODULES);
    const backedUp = await backup.hooks.get(hookId);
    await backup.close();
    if (backedUp?.secret !== SECRET) throw new Error('npm run backup: the backup does not hold the hook');
    step('npm run backup while the bot runs: the backup holds the hook');
  } finally {
    if (bot.exitCode === null && bot.pid !== undefined) process.kill(-bot.pid, 'SIGTERM');
  }
  // npm itself dies of the signal without waiting for its script (so a host should run the bot's own process,
  // `node scripts/launch.js bot`, as the systemd unit and the Dockerfile do); the bot is what must stop cleanly.
  await Promise.race([
    exited,
    new Promise((_, reject) => setTimeout(() => reject(new Error('npm start did not end on SIGTERM')), 15_000)),
  ]);
  await until('the bot stopped', () => (bot.stdout.readableEnded ? true : undefined));
  if (!output.includes('"msg":"shutting down"')) throw new Error('the bot did not log its shutdown on SIGTERM');
  if (/"level":(50|60)/.test(output)) throw new Error(`the bot logged an error:\n${output}`);
  if (discord.violations.length > 0)
    throw new Error(`Discord schema violations: ${JSON.stringify(discord.violations)}`);
  step('stopped on SIGTERM: ok');
} finally {
  await discord.close();
  await service.close();
  rmSync(copy, { recursive: true, force: true });
}
