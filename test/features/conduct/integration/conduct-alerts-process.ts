import { Client } from 'discord.js';
import { pino } from 'pino';

import { RUNTIME_TIMERS } from '../../../../src/base/timers.js';
import { createPostFinder } from '../../../../src/discord/posting/find-post.js';
import { createPoster } from '../../../../src/discord/posting/poster.js';
import { ConductAlerts } from '../../../../src/features/conduct/conduct-alerts.js';
import { conductModule } from '../../../../src/features/conduct/store/conduct-module.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { openStore } from '../../../../src/store/open-store.js';

/**
 * The conduct alerts' sync in a process of its own that a test can SIGKILL (conduct-alerts-restart.test.ts):
 * STORE_URL, DISCORD_API_URL, DISCORD_TOKEN, NONCE_WINDOW_MS. Syncs every 50 ms, and writes `idle` each time a
 * pass finds no alert behind its finding.
 */
const logger = pino({ level: 'warn' }, pino.destination(2));
const store = await openStore(process.env.STORE_URL ?? '', STORE_MODULES);
const token = process.env.DISCORD_TOKEN ?? '';
const client = new Client({
  intents: [],
  rest: { api: process.env.DISCORD_API_URL ?? '', retries: 0, timeout: 60_000 },
});
client.rest.setToken(token);
const conduct = store.of(conductModule);
const alerts = new ConductAlerts({
  conduct,
  documents: store.documents,
  poster: createPoster(client),
  findPosted: createPostFinder(client, token),
  nonceWindowMs: Number(process.env.NONCE_WINDOW_MS ?? 240_000),
  clock: Date.now,
  logger,
  timers: RUNTIME_TIMERS,
});
for (;;) {
  await alerts.syncDue();
  if ((await conduct.unsynced(Date.now() + 3_600_000, 1)).length === 0) process.stdout.write('idle\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
}
