import { REST } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { guildIdOnShard, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { chatInputCommand } from '../../fakes/discord/interaction-builders.js';
import { COMMANDS } from '../../src/commands/index.js';
import { registerCommands } from '../../src/discord/register-commands.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { Fleet, type BotProcess } from './fleet.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const holdsGateway = (bot: BotProcess) =>
  bot.lines.some((line) => String(line['msg']).startsWith('this process holds the gateway'));

/** The variables of every feed process of the fleet, against this fake Discord and database. */
const fleetEnv = (discord: FakeDiscord, databaseUrl: string) => ({
  DISCORD_TOKEN: discord.botToken,
  DISCORD_API_URL: discord.apiUrl,
  PUBLIC_URL: 'https://bot.example.test',
  SERVICE_URL: 'https://service.example.test',
  STORE_URL: databaseUrl,
  LOG_LEVEL: 'info',
});

/** `/status` in a guild, answered once with the feed's status. */
async function expectStatusAnsweredOnce(discord: FakeDiscord, guildId: string): Promise<void> {
  const outcome = await discord.dispatchInteraction(chatInputCommand({ name: 'status', guildId }), {
    timeoutMs: 15_000,
  });
  expect(outcome.reply?.content).toContain('Feed status of this server');
  expect(discord.interactionResponses(outcome.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
}

describe.skipIf(!POSTGRES_URL)('slash commands with several feed processes on PostgreSQL', () => {
  it('are answered once, by the one process holding the gateway, and by another once it dies', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const discord = await startFakeDiscord();
    cleanups.push(() => discord.close());
    const guild = discord.addGuild({ name: 'Shared' });
    await registerCommands(new REST({ api: discord.apiUrl }).setToken(discord.botToken), COMMANDS, {
      guildId: guild.id,
    });
    const fleet = new Fleet({ env: fleetEnv(discord, database.url) });
    cleanups.push(() => fleet.stopAll());
    const feeds = await Promise.all([fleet.start('feed-1', 'feed'), fleet.start('feed-2', 'feed')]);

    await discord.waitFor(() => discord.gatewaySessions === 1 && feeds.some(holdsGateway), 15_000, 'one gateway');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(discord.gatewaySessions).toBe(1);
    expect(feeds.filter(holdsGateway)).toHaveLength(1);
    const first = await discord.dispatchInteraction(chatInputCommand({ name: 'status', guildId: guild.id }), {
      timeoutMs: 15_000,
    });
    expect(first.reply?.content).toContain('Feed status of this server');
    expect(discord.interactionResponses(first.id).filter((r) => r.kind === 'callback')).toHaveLength(1);

    const owner = feeds.find(holdsGateway);
    const other = feeds.find((bot) => bot !== owner);
    if (!owner || !other) throw new Error('no gateway owner');
    await fleet.kill(owner.name);
    await discord.waitFor(() => holdsGateway(other) && discord.gatewaySessions === 1, 15_000, 'the gateway taken over');
    const second = await discord.dispatchInteraction(chatInputCommand({ name: 'status', guildId: guild.id }), {
      timeoutMs: 15_000,
    });
    expect(second.reply?.content).toContain('Feed status of this server');
  }, 60_000);

  it('on three shards: the holder opens one session per shard, and its successor all three once it dies', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const discord = await startFakeDiscord({ shards: 3, maxConcurrency: 3 });
    cleanups.push(() => discord.close());
    const guilds = [0, 1, 2].map((shard) => discord.addGuild({ id: guildIdOnShard(shard, 3), name: `Shard ${shard}` }));
    const rest = new REST({ api: discord.apiUrl }).setToken(discord.botToken);
    for (const guild of guilds) await registerCommands(rest, COMMANDS, { guildId: guild.id });
    const fleet = new Fleet({ env: fleetEnv(discord, database.url) });
    cleanups.push(() => fleet.stopAll());
    const feeds = await Promise.all([fleet.start('feed-1', 'feed'), fleet.start('feed-2', 'feed')]);

    await discord.waitFor(() => discord.gatewaySessions === 3 && feeds.some(holdsGateway), 15_000, 'three shards');
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(discord.gatewaySessions).toBe(3);
    expect(feeds.filter(holdsGateway)).toHaveLength(1);
    expect(discord.identifies.map((identify) => identify.shard).sort()).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    for (const guild of guilds) await expectStatusAnsweredOnce(discord, guild.id);

    const owner = feeds.find(holdsGateway);
    const other = feeds.find((bot) => bot !== owner);
    if (!owner || !other) throw new Error('no gateway owner');
    await fleet.kill(owner.name);
    await discord.waitFor(() => holdsGateway(other) && discord.gatewaySessions === 3, 20_000, 'all shards taken over');
    expect(
      discord.identifies
        .slice(3)
        .map((identify) => identify.shard)
        .sort(),
    ).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    for (const guild of guilds) await expectStatusAnsweredOnce(discord, guild.id);
  }, 60_000);
});
