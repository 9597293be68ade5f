import { Client } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeDiscord } from '../../../../fakes/discord/index.js';
import { RUNTIME_TIMERS } from '../../../../src/base/timers.js';
import { createPostFinder } from '../../../../src/discord/posting/find-post.js';
import { createPoster } from '../../../../src/discord/posting/poster.js';
import { DigestJob } from '../../../../src/features/digest/digest-job.js';
import { digestModule } from '../../../../src/features/digest/store/digest-module.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { openPostgresStore } from '../../../../src/store/postgres/open-postgres-store.js';
import type { Store } from '../../../../src/store/store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { createTestDatabase, POSTGRES_URL } from '../../../helpers/postgres-database.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!POSTGRES_URL)('the weekly digest with two processes on PostgreSQL', () => {
  it('is posted once when both look for it at its hour, again and again', async () => {
    // Discord's nonce would fold two sends into one message: here it does not, so only the store keeps it once.
    const discord = await startFakeDiscord({ nonceWindowMs: 0 });
    cleanups.push(() => discord.close());
    const guild = discord.addGuild({ channels: [{ name: 'digest' }] });
    const channelId = guild.channels['digest'] ?? '';
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());

    // Each "process": its own store (its own pool), discord.js REST client, poster and digest job.
    const logs = captureLogs();
    const processJob = async (): Promise<{ store: Store; job: DigestJob }> => {
      const store = await openPostgresStore(database.url, STORE_MODULES, Date.now);
      cleanups.push(() => store.close());
      const client = new Client({ intents: [], rest: { api: discord.apiUrl, retries: 0 } });
      client.rest.setToken(discord.botToken);
      cleanups.push(() => client.destroy());
      const job = new DigestJob({
        digests: store.of(digestModule),
        record: store.of(recordModule),
        charts: { draw: () => Promise.resolve(undefined) },
        poster: createPoster(client, { token: discord.botToken }),
        findPosted: createPostFinder(client, discord.botToken),
        guildOf: () => undefined,
        clock: Date.now,
        timers: RUNTIME_TIMERS,
        logger: logs.logger,
      });
      return { store, job };
    };
    const [first, second] = [await processJob(), await processJob()];

    const weekEnd = Date.now() - 1_000;
    await first.store.of(digestModule).setSchedule({
      guildId: guild.id,
      channelId,
      weekday: new Date(weekEnd).getUTCDay(),
      hour: new Date(weekEnd).getUTCHours(),
      timeZone: 'UTC',
      nextAt: weekEnd,
    });
    // Both check at once, five times each, as two processes whose jobs both ran would.
    for (let round = 0; round < 5; round += 1) await Promise.all([first.job.check(), second.job.check()]);

    expect(discord.messages(channelId)).toHaveLength(1);
    expect(discord.messages(channelId)[0]?.embeds[0]?.title).toMatch(/^Weekly digest: /);
    const schedule = await second.store.of(digestModule).scheduleOf(guild.id);
    expect(schedule?.nextAt).toBeGreaterThan(Date.now());
    expect(logs.text()).not.toContain('weekly digest not posted');
    expect(discord.violations).toEqual([]);
  });
});
