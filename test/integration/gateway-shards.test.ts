/**
 * The bot's own Discord client (createDiscordClient, connectDiscord, DiscordHealth) against a fake Discord that
 * recommends 3 shards: what the gateway owner does at login, when a shard is down, and when it hands the gateway
 * over and takes it back (destroy, then a new login in the same process).
 */
import { afterEach, describe, expect, it } from 'vitest';

import { guildIdOnShard, startFakeDiscord, type FakeDiscord } from '../../fakes/discord/index.js';
import { connectDiscord, logGatewayShards, type DiscordConnection } from '../../src/discord/connect-discord.js';
import { createDiscordClient } from '../../src/discord/create-client.js';
import { DiscordHealth } from '../../src/discord/discord-health.js';
import { captureLogs } from '../helpers/capture-logs.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A fake recommending 3 shards with a guild on each, and the bot's client, its health and its logged lines. */
interface World {
  readonly discord: FakeDiscord;
  readonly client: ReturnType<typeof createDiscordClient>;
  readonly health: DiscordHealth;
  /** connectDiscord, as the gateway owner logs in. */
  readonly login: () => Promise<void>;
  /** What was logged, each line's message and shard. */
  readonly messages: () => Array<{ msg: unknown; shard: unknown }>;
}

async function start(): Promise<World> {
  const discord = await startFakeDiscord({ shards: 3, maxConcurrency: 3 });
  cleanups.push(() => discord.close());
  for (const shard of [0, 1, 2]) discord.addGuild({ id: guildIdOnShard(shard, 3), name: `Shard ${shard}` });
  const client = createDiscordClient({ apiUrl: discord.apiUrl });
  cleanups.push(() => client.destroy());
  const logs = captureLogs('info');
  logGatewayShards(client, logs.logger);
  const health = new DiscordHealth(client, Date.now);
  let connection: DiscordConnection | undefined;
  cleanups.push(() => connection?.stop());
  return {
    discord,
    health,
    client,
    messages: () =>
      logs.lines.map((text) => {
        const line = JSON.parse(text) as Record<string, unknown>;
        return { msg: line['msg'], shard: line['shard'] };
      }),
    login: async () => {
      connection = await connectDiscord(client, discord.botToken, {
        logger: logs.logger,
        backoff: { baseMs: 100, capMs: 500 },
      });
    },
  };
}

const READY = { '0': 'ready', '1': 'ready', '2': 'ready' };

describe("the gateway owner's client on three shards", () => {
  it("opens Discord's recommended count, is ready only when every shard is, and says which one is down", async () => {
    const { discord, health, login, messages } = await start();
    expect(health.shards).toBeUndefined();
    expect(health.state).toBe('connecting');
    await login();
    await discord.waitFor(() => health.state === 'ready', 10_000, 'ready');
    expect(health.shards).toEqual(READY);
    expect(discord.identifies.map((identify) => identify.shard).sort()).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);

    discord.holdShard(2);
    discord.disconnectShard(2);
    await discord.waitFor(() => health.state === 'connecting', 5_000, 'shard 2 down');
    expect(health.shards).toMatchObject({ '0': 'ready', '1': 'ready' });
    expect(health.shards?.['2']).not.toBe('ready');
    discord.releaseShard(2);
    await discord.waitFor(() => health.state === 'ready', 5_000, 'ready again');
    expect(discord.resumeLog.map((resume) => resume.shard)).toEqual([[2, 3]]);
    expect(messages()).toContainEqual({ msg: 'Discord gateway shard resumed', shard: 2 });
  });

  it('hands the gateway over: destroy closes every shard; a later login opens all three again', async () => {
    const { discord, health, client, login } = await start();
    await login();
    await discord.waitFor(() => health.state === 'ready', 10_000, 'ready');

    // Lease lost: what start-feed does (destroy, keep the token for REST).
    health.gatewayHere = false;
    await client.destroy();
    await discord.waitFor(() => discord.connectedSessions === 0, 5_000, 'every shard closed');
    expect(health.state).toBe('rest');
    expect(health.shards).toBeUndefined();
    // A clean close (1000) ends the sessions: nothing is left to resume.
    expect(discord.gatewaySessionList).toEqual([]);

    // Lease back: a new login, in the same process, on the same client.
    health.gatewayHere = true;
    await login();
    await discord.waitFor(() => discord.connectedSessions === 3, 15_000, 'three shards again');
    await discord.waitFor(() => health.state === 'ready', 15_000, 'ready again');
    expect(health.shards).toEqual(READY);
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
  });

  it('a shard Discord closes for good (4011) keeps the health connecting and is logged with what to do', async () => {
    const { discord, health, login, messages } = await start();
    await login();
    await discord.waitFor(() => health.state === 'ready', 10_000, 'ready');
    discord.disconnectShard(1, { code: 4011, invalidateSession: true });
    await discord.waitFor(
      () => messages().some((line) => String(line.msg).includes('sharding required')),
      5_000,
      'the log line',
    );
    expect(messages()).toContainEqual({
      msg: expect.stringContaining('restart the bot so it asks Discord for the count again') as unknown,
      shard: 1,
    });
    expect(health.state).toBe('connecting');
    expect(health.shards?.['1']).toBe('disconnected');
  });
});
