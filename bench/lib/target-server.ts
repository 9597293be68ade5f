import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';

import type { Config } from '../../src/base/config.js';
import { createLogger } from '../../src/base/logger.js';
import { startBot } from '../../src/bot.js';
import { listen } from '../../src/http-server.js';
import { BENCH_GUILD_ID, BENCH_SECRET } from './delivery.js';
import { startPostgresPeer, startSqlitePeer, startVerifyingPeer } from './durable-peers.js';
import type { RunningServer } from './running-server.js';
import type { ServerKind, ServerReply, ServerRequest } from './server-protocol.js';
import { applySqliteCacheOverride } from './sqlite-cache-override.js';

/**
 * A server process of the benchmarks: the real bot (SQLite or PostgreSQL), the bare Express peer or a durable peer
 * (lib/durable-peers.ts), started the same way (this module, forked with tsx), so they differ only in what they serve.
 */

applySqliteCacheOverride();

/**
 * The real intake: on a SQLite file of its own (`storeUrl` undefined), or as an intake-only process on a
 * PostgreSQL database that other server processes of the same measurement may share.
 */
async function startRealBot(
  storeUrl: string | undefined,
  options: { withoutWrite?: boolean } = {},
): Promise<RunningServer> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-'));
  const config = {
    DISCORD_TOKEN: 'x',
    PUBLIC_URL: 'https://bench.example',
    PORT: 0,
    STORE_URL: storeUrl ?? `sqlite://${dir}/bench.sqlite`,
    SERVICE_URL: 'https://service.example',
    LOG_LEVEL: 'silent',
    ROLE: storeUrl === undefined ? 'all' : 'intake',
  } as Config;
  // feed: false: the intake alone, no Discord login (what this benchmark is about).
  const bot = await startBot({ config, logger: createLogger('silent'), host: '127.0.0.1', feed: false });
  const hookId = randomBytes(16).toString('hex');
  await bot.store.hooks.save({
    hookId,
    guildId: BENCH_GUILD_ID,
    webhookId: 'wh_bench',
    secret: BENCH_SECRET,
    events: ['all'],
    createdAt: Date.now(),
  });
  let skipped = 0;
  if (options.withoutWrite) {
    // The route holds the store's deliveries object and calls its accept at each delivery: this one writes nothing.
    bot.store.deliveries.accept = () => {
      skipped += 1;
      return Promise.resolve('accepted');
    };
  }
  return {
    url: bot.http.url,
    path: `/webhooks/${hookId}`,
    handled: () => (options.withoutWrite ? skipped : bot.store.deliveries.countOpen()),
    async stop() {
      await bot.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startBareExpress(): Promise<RunningServer> {
  let handled = 0;
  const app = express();
  app.post('/webhooks/:hookId', (_req, res) => {
    handled += 1;
    res.status(204).end();
  });
  const http = await listen(app, 0, '127.0.0.1');
  return {
    url: http.url,
    path: `/webhooks/${randomBytes(16).toString('hex')}`,
    handled: () => handled,
    stop: () => http.close(),
  };
}

function reply(message: ServerReply, then: () => void = () => {}): void {
  process.send?.(message, then);
}

function start(kind: ServerKind, storeUrl: string | undefined): Promise<RunningServer> {
  switch (kind) {
    case 'express':
      return startBareExpress();
    case 'express-sqlite':
      return startSqlitePeer();
    case 'express-verify':
      return startVerifyingPeer();
    case 'express-pg':
      if (storeUrl === undefined) throw new Error('express-pg needs a database');
      return startPostgresPeer(storeUrl);
    case 'bot-without-write':
      return startRealBot(undefined, { withoutWrite: true });
    case 'bot':
    case 'pg':
      return startRealBot(storeUrl);
  }
}

const server = await start(process.argv[2] as ServerKind, process.argv[3]);
process.on('message', (message: ServerRequest) => {
  if (message.type === 'usage') {
    const cpu = process.cpuUsage();
    const atMs = performance.now();
    void Promise.resolve(server.handled()).then((handled) =>
      reply({ type: 'usage', cpuMicros: cpu.user + cpu.system, atMs, handled }),
    );
    return;
  }
  void server.stop().then(() => reply({ type: 'stopped' }, () => process.exit(0)));
});
reply({ type: 'ready', url: server.url, path: server.path, secret: BENCH_SECRET });
