import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { Keyv } from 'keyv';
import { startBot } from '../../src/bot.js';
import type { Config } from '../../src/config.js';
import { listen } from '../../src/http-server.js';
import { createLogger } from '../../src/logger.js';
import { SQLITE_PRAGMAS } from '../../src/store/keyv-factory.js';
import { BENCH_GUILD_ID, BENCH_SECRET } from './delivery.js';
import { GroupCommitSqlite } from './group-commit-sqlite.js';
import type { ServerKind, ServerReply, ServerRequest } from './server-protocol.js';

/**
 * A server process of the benchmarks: the real bot or the bare Express peer, started the same way
 * (this module, forked with tsx), so the two differ only in what they serve.
 */

interface Running {
  url: string;
  path: string;
  handled(): number;
  stop(): Promise<void>;
}

/**
 * The keyv behind a repository (Outbox, SeenDeliveries: `records` -> TypedCollection `keyv`). These are private
 * fields, so it checks what it finds and fails loudly once src/ changes shape.
 */
function keyvOf(repository: unknown, what: string): Keyv {
  const keyv = (repository as { records?: { keyv?: unknown } }).records?.keyv;
  if (!(keyv instanceof Keyv)) throw new Error(`${what}.records.keyv not found; update bench/lib/target-server.ts`);
  return keyv;
}

/**
 * Points the outbox's keyv at a group-commit adapter on the same file and table, with the same PRAGMAs: the
 * rest of the bot is untouched.
 */
async function swapOutboxToGroupCommit(outbox: unknown, file: string): Promise<() => Promise<void>> {
  const keyv = keyvOf(outbox, 'Outbox');
  const adapter = new GroupCommitSqlite({ uri: `sqlite://${file}`, table: 'outbox', busyTimeout: 5000, iterationLimit: 500 });
  for (const pragma of SQLITE_PRAGMAS) await adapter.query(pragma);
  keyv.store = adapter;
  return () => adapter.disconnect();
}

async function startRealBot(kind: Exclude<ServerKind, 'express'>): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-'));
  const config = {
    DISCORD_TOKEN: 'x',
    PUBLIC_URL: 'https://bench.example',
    PORT: 0,
    STORE_URL: `sqlite://${dir}/bench.sqlite`,
    SERVICE_URL: 'https://service.example',
    LOG_LEVEL: 'silent',
  } as Config;
  // feed: false: the intake alone, no Discord login (what this benchmark is about).
  const bot = await startBot({ config, logger: createLogger('silent'), host: '127.0.0.1', feed: false });
  const closeSwap = kind === 'bot' ? async () => {} : await swapOutboxToGroupCommit(bot.store.outbox, `${dir}/bench.sqlite`);
  // The upper bound of answering "seen before?" from memory (a Set or Bloom filter of recent ids) instead of a
  // SELECT per delivery: the bench's seen table is empty anyway, so only the lookup's cost changes.
  if (kind === 'bot-group-commit-memory-seen') keyvOf(bot.store.seen, 'SeenDeliveries').store = new Map();
  const hookId = randomBytes(16).toString('hex');
  await bot.store.hooks.save({
    hookId,
    guildId: BENCH_GUILD_ID,
    webhookId: 'wh_bench',
    secret: BENCH_SECRET,
    events: ['all'],
    createdAt: Date.now(),
  });
  return {
    url: bot.http.url,
    path: `/webhooks/${hookId}`,
    handled: () => bot.store.outbox.size,
    async stop() {
      await bot.stop();
      await closeSwap();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startBareExpress(): Promise<Running> {
  let handled = 0;
  const app = express();
  app.post('/webhooks/:hookId', (_req, res) => {
    handled += 1;
    res.status(204).end();
  });
  const http = await listen(app, 0, '127.0.0.1');
  return { url: http.url, path: `/webhooks/${randomBytes(16).toString('hex')}`, handled: () => handled, stop: () => http.close() };
}

function reply(message: ServerReply, then: () => void = () => {}): void {
  process.send?.(message, then);
}

const kind = process.argv[2] as ServerKind;
const server = kind === 'express' ? await startBareExpress() : await startRealBot(kind);
process.on('message', (message: ServerRequest) => {
  if (message.type === 'usage') {
    const cpu = process.cpuUsage();
    reply({ type: 'usage', cpuMicros: cpu.user + cpu.system, atMs: performance.now(), handled: server.handled() });
    return;
  }
  void server.stop().then(() => reply({ type: 'stopped' }, () => process.exit(0)));
});
reply({ type: 'ready', url: server.url, path: server.path, secret: BENCH_SECRET });
