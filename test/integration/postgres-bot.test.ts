import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import type { Config } from '../../src/base/config.js';
import { startBot, type RunningBot } from '../../src/bot.js';
import { recordModule } from '../../src/features/record/store/record-module.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { testConfig } from '../helpers/test-config.js';

const SECRET = 'whsec_pg_in_process_0123456789';
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function deliver(bot: RunningBot, hookId: string, id: string, caller = id): Promise<number> {
  // A caller of its own: one caller's calls within 10 minutes are one card, and these tests count posts.
  const call = SAMPLE_DELIVERIES.modcall;
  return deliverBody(bot, hookId, { ...call, id, data: { ...call.data, caller: { robloxId: caller, name: caller } } });
}

async function deliverBody(bot: RunningBot, hookId: string, delivery: object): Promise<number> {
  const body = JSON.stringify(delivery);
  const timestamp = String(Math.floor(Date.now() / 1000));
  const response = await fetch(`${bot.http.url}/webhooks/${hookId}`, {
    method: 'POST',
    headers: { 'x-service-timestamp': timestamp, 'x-service-signature': signDelivery(SECRET, timestamp, body) },
    body,
  });
  return response.status;
}

const postedIds = (discord: FakeDiscord, channelId: string) =>
  discord.messages(channelId).flatMap((m) => m.embeds.map((e) => /Delivery (\S+)$/.exec(e.footer?.text ?? '')?.[1]));

async function world(roles: Array<Config['ROLE']>, config: Partial<Config> = {}) {
  const database = await createTestDatabase();
  cleanups.push(() => database.drop());
  const discord = await startFakeDiscord();
  cleanups.push(() => discord.close());
  const guild = discord.addGuild({ channels: [{ name: 'feed' }] });
  const channelId = guild.channels.feed ?? '';
  const bots: RunningBot[] = [];
  for (const role of roles) {
    const bot = await startBot({
      config: testConfig({
        STORE_URL: database.url,
        ROLE: role,
        DISCORD_API_URL: discord.apiUrl,
        DISCORD_TOKEN: discord.botToken,
        ...config,
      }),
      logger: captureLogs().logger,
      host: '127.0.0.1',
      feed: { backoff: { baseMs: 20, capMs: 200 }, leases: { rebalanceMs: 200, idleTimeoutMs: 5_000 } },
    });
    cleanups.push(() => bot.stop());
    bots.push(bot);
  }
  const hookId = randomBytes(16).toString('hex');
  const [first] = bots;
  if (!first) throw new Error('no bot');
  await first.store.hooks.save({
    hookId,
    guildId: guild.id,
    webhookId: 'wh_1',
    secret: SECRET,
    events: ['all'],
    createdAt: 1,
  });
  await first.store.guilds.update(guild.id, (s) => ({ ...s, defaultChannelId: channelId }));
  return { database, discord, channelId, hookId, bots, guildId: guild.id };
}

describe.skipIf(!POSTGRES_URL)('the bot on PostgreSQL', () => {
  it('in one process: posts, holds the gateway, and hears its signals again after the LISTEN connection is lost', async () => {
    const { database, discord, channelId, hookId, bots } = await world(['all']);
    const [bot] = bots;
    if (!bot) throw new Error('no bot');
    expect(await deliver(bot, hookId, 'pg-1')).toBe(204);
    await discord.waitFor(() => postedIds(discord, channelId).length === 1, 10_000, 'the first post');
    await discord.waitFor(() => bot.discordHealth.state === 'ready', 10_000, 'the gateway held and ready');
    const health = (await (await fetch(`${bot.http.url}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ store: 'postgres', role: 'all', discord: 'ready' });

    // The LISTEN connection dies (a failover, a restart of PostgreSQL): it is made again and work still flows.
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'service-discord-bridge-signals'
         AND datname = current_database()`,
    );
    await admin.end();
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(await deliver(bot, hookId, 'pg-2')).toBe(204);
    await discord.waitFor(() => postedIds(discord, channelId).length === 2, 15_000, 'the post after the reconnect');
    expect(postedIds(discord, channelId)).toEqual(['pg-1', 'pg-2']);
  });

  it('refuses a removed hook with 404 in every process at once, whatever each one cached', async () => {
    const { database, hookId, bots, guildId } = await world(['intake', 'intake']);
    const [first, second] = bots;
    if (!first || !second) throw new Error('no bots');
    // Both processes have looked the hook up, and keep their copy.
    expect(await deliver(first, hookId, 'cached-1')).toBe(204);
    expect(await deliver(second, hookId, 'cached-2')).toBe(204);

    // Removed with no notice to the other processes (as when the process removing it dies before saying so).
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    await admin.query('DELETE FROM hook WHERE hook_id = $1', [hookId]);
    await admin.end();
    expect(await deliver(first, hookId, 'after-1')).toBe(404);
    expect(await deliver(second, hookId, 'after-2')).toBe(404);

    // Leaving the server, decided in one process: the other refuses the very next delivery.
    const again = randomBytes(16).toString('hex');
    await first.store.hooks.save({
      hookId: again,
      guildId,
      webhookId: 'wh_2',
      secret: SECRET,
      events: ['all'],
      createdAt: 2,
    });
    expect(await deliver(second, again, 'cached-3')).toBe(204);
    expect(await first.store.forgetGuild(guildId)).toMatchObject({ hooks: 1 });
    expect(await deliver(second, again, 'after-3')).toBe(404);
    expect(await second.store.deliveries.stateOf(again, 'after-3')).toBeUndefined();
  });

  it('the longest delivery id (256 characters): 2xx twice, posted once, its footer cut; a longer one 400', async () => {
    const { discord, channelId, hookId, bots } = await world(['all']);
    const [bot] = bots;
    if (!bot) throw new Error('no bot');
    // Over the 200 bytes stored as they are: the store keys it by its digest.
    const id = randomBytes(192).toString('base64url');
    expect(id).toHaveLength(256);
    expect(await deliver(bot, hookId, `${id}x`, 'long-id-caller')).toBe(400);
    expect(await deliver(bot, hookId, id, 'long-id-caller')).toBe(204);
    expect(await deliver(bot, hookId, id, 'long-id-caller')).toBe(200);
    const [message] = await discord.waitForMessages(channelId, 1, 10_000);
    const footer = message?.embeds[0]?.footer?.text ?? '';
    expect(footer).toMatch(new RegExp(`^Server \\d+ · Delivery ${id.slice(0, 100)}[\\w-]*…$`));
    expect(footer.length).toBeLessThan(300);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(discord.messages(channelId)).toHaveLength(1);
    expect(discord.violations).toEqual([]);
  });

  it('a case whose reason and names carry NUL and other controls: posted, its card edited, recorded without them', async () => {
    const { discord, channelId, hookId, bots, guildId } = await world(['all']);
    const [bot] = bots;
    if (!bot) throw new Error('no bot');
    const created = SAMPLE_DELIVERIES['case.created'];
    const target = { robloxId: created.data.case.target.robloxId, name: 'Speedy\u0000Racer\u0007' };
    const reason = 'Fail\u0000 roleplay\u001b:\tramming\nat spawn';
    const bad = { ...created.data.case, target, moderator: { discordId: '1', name: 'Mi\u0000ra' }, reason };
    expect(await deliverBody(bot, hookId, { ...created, data: { case: bad } })).toBe(204);
    const [posted] = await discord.waitForMessages(channelId, 1, 10_000);
    const shown = JSON.stringify(posted?.embeds);
    expect(shown).toContain('SpeedyRacer');
    // JSON writes a control character but tab, line feed, CR, \b and \f as \u00XX.
    expect(shown).not.toMatch(/\\u00[01]/);
    // The card was kept: the case's voiding edits it rather than posting on its own.
    const voided = SAMPLE_DELIVERIES['case.voided'];
    expect(await deliverBody(bot, hookId, { ...voided, data: { case: { ...voided.data.case, target } } })).toBe(204);
    await discord.waitFor(
      () => JSON.stringify(discord.messages(channelId)[0]?.embeds).includes('Voided'),
      10_000,
      'the card edited as voided',
    );
    expect(discord.messages(channelId)).toHaveLength(1);
    // The record's writer merged both, without the control characters.
    await discord.waitFor(
      async () =>
        (await bot.store.of(recordModule).casesOf(guildId, target.robloxId, { limit: 5, offset: 0 })).length === 1,
      10_000,
      'the case recorded',
    );
    const [recorded] = await bot.store.of(recordModule).casesOf(guildId, target.robloxId, { limit: 5, offset: 0 });
    expect(recorded).toMatchObject({
      targetName: 'SpeedyRacer',
      moderatorName: 'Mira',
      reason: 'Fail roleplay:\tramming\nat spawn',
    });
    expect(recorded?.voidedAt).toBe(voided.data.case.voidedAt);
  });

  it('split by role: the intake process takes the delivery, the feed process posts it', async () => {
    const { discord, channelId, hookId, bots } = await world(['intake', 'feed']);
    const [intake, feed] = bots;
    if (!intake || !feed) throw new Error('no bots');
    expect(intake.discord).toBeUndefined();
    expect((await fetch(`${feed.http.url}/webhooks/${hookId}`, { method: 'POST', body: '{}' })).status).toBe(404);
    expect(await deliver(intake, hookId, 'split-1')).toBe(204);
    expect(await deliver(intake, hookId, 'split-1')).toBe(200);
    await discord.waitFor(() => postedIds(discord, channelId).length === 1, 10_000, 'the post');
    const health = (await (await fetch(`${intake.http.url}/healthz`)).json()) as Record<string, unknown>;
    expect(health).toMatchObject({ role: 'intake', discord: 'off' });
  });

  it('metrics per process: the intake counts the delivery, the feeds share the leases, the queue is store-wide', async () => {
    const { discord, channelId, hookId, bots } = await world(['intake', 'feed', 'feed'], { METRICS_PORT: 0 });
    const [intake, ...feeds] = bots;
    if (!intake) throw new Error('no bots');
    const scrape = async (bot: RunningBot) => {
      const text = await (await fetch(`${bot.metricsHttp?.url}/metrics`)).text();
      const value = (sample: string) => {
        const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
        return line === undefined ? undefined : Number(line.slice(sample.length + 1));
      };
      return { text, value };
    };
    const leases = async (lease: string) => {
      const each = await Promise.all(
        feeds.map(async (feed) => (await scrape(feed)).value(`bridge_lease_owned{lease="${lease}"}`)),
      );
      return each.map((n) => n ?? 0);
    };
    await discord.waitFor(
      async () => {
        const partitions = await leases('feed_partitions');
        return partitions.every((n) => n > 0) && partitions.reduce((a, b) => a + b, 0) === 64;
      },
      10_000,
      'the partitions shared between the feed processes',
    );
    expect((await leases('gateway')).sort()).toEqual([0, 1]);
    // The gateway's one shard (the fake recommends one) is opened by one of them, which /healthz names.
    await discord.waitFor(
      async () => (await leases('gateway_shards')).sort().join() === '0,1',
      10_000,
      'the shard held by one feed process',
    );
    const healths = await Promise.all(
      feeds.map(async (feed) => (await (await fetch(`${feed.http.url}/healthz`)).json()) as Record<string, unknown>),
    );
    expect(healths.map((health) => health['discord_shards']).filter((shards) => shards !== undefined)).toEqual([
      { '0': 'ready' },
    ]);
    expect(healths.map((health) => health['discord']).sort()).toEqual(['ready', 'rest']);

    expect(await deliver(intake, hookId, 'metrics-1')).toBe(204);
    await discord.waitFor(() => postedIds(discord, channelId).length === 1, 10_000, 'the post');
    const fromIntake = await scrape(intake);
    expect(fromIntake.value('bridge_deliveries_total{outcome="accepted"}')).toBe(1);
    expect(fromIntake.value('bridge_lease_owned{lease="gateway"}')).toBe(0);
    expect(fromIntake.value('bridge_lease_owned{lease="feed_partitions"}')).toBe(0);
    expect(fromIntake.value('bridge_poller_budget_remaining')).toBeUndefined();
    const posted = await Promise.all(
      feeds.map(async (feed) => (await scrape(feed)).value('bridge_discord_sends_total{outcome="posted"}') ?? 0),
    );
    expect(posted.reduce((a, b) => a + b, 0)).toBe(1);
    // The queue is the store's: every process reads the same counts.
    await discord.waitFor(
      async () => {
        const waiting = await Promise.all(
          bots.map(async (bot) => (await scrape(bot)).value('bridge_entries{state="waiting"}')),
        );
        return waiting.every((n) => n === 0);
      },
      10_000,
      'the entry acked',
    );
  });
});
