/**
 * The fake Discord's shards against the real discord.js 14 client with `shards: 'auto'`: the recommended count,
 * one session per shard hearing only of its own guilds, interactions routed to their guild's shard, one shard
 * dropped and resumed while the others carry on, and the refusals of a second session of a live shard, of an
 * invalid shard and of a shard holding too many guilds.
 */
import {
  Client,
  Events,
  GatewayCloseCodes,
  GatewayIntentBits,
  GatewayOpcodes,
  MessageFlags,
  Routes,
  Status,
} from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

import {
  chatInputCommand,
  guildIdOnShard,
  startFakeDiscord,
  type FakeDiscord,
  type FakeDiscordOptions,
} from '../../fakes/discord/index.js';

const running: { fake?: FakeDiscord; clients: Client[]; sockets: WebSocket[] } = { clients: [], sockets: [] };

afterEach(async () => {
  for (const socket of running.sockets.splice(0)) socket.terminate();
  for (const client of running.clients.splice(0)) await client.destroy();
  await running.fake?.close();
  delete running.fake;
});

/** A fake recommending 3 shards, with one guild on each (ids in shard order). */
async function startSharded(options: FakeDiscordOptions = {}): Promise<{ fake: FakeDiscord; guildIds: string[] }> {
  const guildIds = [0, 1, 2].map((shard) => guildIdOnShard(shard, 3));
  const fake = await startFakeDiscord({
    shards: 3,
    maxConcurrency: 3,
    guilds: guildIds.map((id, shard) => ({ id, name: `Shard ${shard} guild` })),
    ...options,
  });
  running.fake = fake;
  return { fake, guildIds };
}

/** A client as the bot makes it (Guilds intent), sharded automatically; resolves once every shard is ready. */
async function login(fake: FakeDiscord): Promise<{ client: Client; raw: Array<{ t: string; shard: number }> }> {
  const client = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: fake.apiUrl }, shards: 'auto' });
  running.clients.push(client);
  const raw: Array<{ t: string; shard: number }> = [];
  client.on(Events.Raw, (packet: { t?: string | null }, shard: number) => {
    if (packet.t) raw.push({ t: packet.t, shard });
  });
  client.on(Events.InteractionCreate, (interaction) => {
    if (interaction.isChatInputCommand()) {
      void interaction.reply({
        content: `pong from shard ${interaction.guild?.shardId}`,
        flags: MessageFlags.Ephemeral,
      });
    }
  });
  const ready = new Promise<void>((resolve) => client.once(Events.ClientReady, () => resolve()));
  await client.login(fake.botToken);
  await ready;
  return { client, raw };
}

/**
 * A bare gateway connection that sends IDENTIFY with `d`'s fields: resolves with the close code and whether READY
 * came first (a READY closes it with 1000), or, with `stayOpen`, once READY came, the session left live.
 */
function identifyRaw(
  fake: FakeDiscord,
  d: Record<string, unknown>,
  stayOpen = false,
): Promise<{ code: number | undefined; ready: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${fake.gatewayUrl}/?v=10&encoding=json`);
    running.sockets.push(socket);
    let ready = false;
    socket.on('error', reject);
    socket.on('message', (raw: Buffer) => {
      const payload = JSON.parse(raw.toString('utf8')) as { op: GatewayOpcodes; t?: string };
      if (payload.op === GatewayOpcodes.Hello) {
        socket.send(JSON.stringify({ op: GatewayOpcodes.Identify, d: { token: fake.botToken, intents: 1, ...d } }));
      } else if (payload.t === 'READY') {
        ready = true;
        if (stayOpen) resolve({ code: undefined, ready });
        else socket.close(1000);
      }
    });
    socket.on('close', (code) => resolve({ code, ready }));
  });
}

describe('fake Discord shards with discord.js shards: auto', () => {
  it('recommends its shard count with max_concurrency; each shard is told only of its own guilds', async () => {
    const { fake, guildIds } = await startSharded();
    const gateway = (await fetch(`${fake.apiUrl}${Routes.gatewayBot()}`, {
      headers: { authorization: `Bot ${fake.botToken}` },
    }).then((response) => response.json())) as { shards: number; session_start_limit: { max_concurrency: number } };
    expect(gateway.shards).toBe(3);
    expect(gateway.session_start_limit.max_concurrency).toBe(3);

    const { client, raw } = await login(fake);
    expect(fake.identifies.map((identify) => identify.shard).sort()).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    expect(fake.connectedSessions).toBe(3);
    expect(client.ws.shards.size).toBe(3);
    // Each guild arrived on its own shard, and only there.
    for (const [shard, guildId] of guildIds.entries()) {
      expect(fake.shardOf(guildId)).toBe(shard);
      expect(client.guilds.cache.get(guildId)?.shardId).toBe(shard);
    }
    expect(
      raw
        .filter((packet) => packet.t === 'GUILD_CREATE')
        .map((packet) => packet.shard)
        .sort(),
    ).toEqual([0, 1, 2]);

    // A guild added later is announced on its shard only.
    const later = fake.addGuild({ id: guildIdOnShard(1, 3), name: 'Later' });
    await fake.waitFor(() => client.guilds.cache.has(later.id), 5_000, 'the later guild');
    const announced = raw.filter((packet) => packet.t === 'GUILD_CREATE').slice(3);
    expect(announced).toEqual([{ t: 'GUILD_CREATE', shard: 1 }]);
    expect(client.guilds.cache.get(later.id)?.shardId).toBe(1);
  });

  it("dispatches an interaction to its guild's shard only, answered once", async () => {
    const { fake, guildIds } = await startSharded();
    const { raw } = await login(fake);
    for (const [shard, guildId] of guildIds.entries()) {
      const before = raw.length;
      const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'ping', guildId }));
      expect(outcome.callback.data).toMatchObject({ content: `pong from shard ${shard}` });
      expect(fake.interactionResponses(outcome.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
      expect(raw.slice(before).filter((packet) => packet.t === 'INTERACTION_CREATE')).toEqual([
        { t: 'INTERACTION_CREATE', shard },
      ]);
    }
  });

  it('drops one shard: it resumes (no new IDENTIFY) and gets what it missed; the others answer meanwhile', async () => {
    const { fake, guildIds } = await startSharded();
    const { client } = await login(fake);
    const [onZero, onOne, onTwo] = guildIds as [string, string, string];
    const sessionOfOne = fake.gatewaySessionList.find((session) => session.shard[0] === 1)?.sessionId;

    fake.holdShard(1);
    expect(fake.disconnectShard(1)).toBe(1);
    expect(fake.connectedSessions).toBe(2);
    // Dispatched while shard 1 is down: kept for its session and replayed when it resumes.
    const missed = fake.dispatchInteraction(chatInputCommand({ name: 'ping', guildId: onOne }), { timeoutMs: 10_000 });
    const zero = await fake.dispatchInteraction(chatInputCommand({ name: 'ping', guildId: onZero }));
    const two = await fake.dispatchInteraction(chatInputCommand({ name: 'ping', guildId: onTwo }));
    expect(zero.callback.data).toMatchObject({ content: 'pong from shard 0' });
    expect(two.callback.data).toMatchObject({ content: 'pong from shard 2' });
    await fake.waitFor(() => client.ws.shards.get(1)?.status === Status.Resuming, 5_000, 'shard 1 resuming');
    expect(fake.gatewaySessionList.find((session) => session.shard[0] === 1)?.connected).toBe(false);
    expect(fake.resumes).toBe(0);

    fake.releaseShard(1);
    expect((await missed).callback.data).toMatchObject({ content: 'pong from shard 1' });
    await fake.waitFor(() => fake.connectedSessions === 3, 5_000, 'shard 1 back');
    expect(fake.resumeLog.map((resume) => ({ session: resume.sessionId, shard: resume.shard }))).toEqual([
      { session: sessionOfOne, shard: [1, 3] },
    ]);
    expect(fake.identifies).toHaveLength(3);
    expect(client.ws.shards.get(1)?.status).toBe(Status.Ready);
  });

  it('a socket dropped without a close frame (1006) resumes as well', async () => {
    const { fake, guildIds } = await startSharded();
    await login(fake);
    expect(fake.disconnectShard(2, { code: 1006 })).toBe(1);
    const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'ping', guildId: guildIds[2] ?? '' }));
    expect(outcome.callback.data).toMatchObject({ content: 'pong from shard 2' });
    await fake.waitFor(() => fake.connectedSessions === 3, 5_000, 'shard 2 back');
    expect(fake.resumeLog.map((resume) => resume.shard)).toEqual([[2, 3]]);
    expect(fake.identifies).toHaveLength(3);
  });

  it('an invalidated shard identifies again, as that shard only', async () => {
    const { fake, guildIds } = await startSharded();
    const { client } = await login(fake);
    fake.disconnectShard(0, { invalidateSession: true });
    await fake.waitFor(() => fake.connectedSessions === 3, 10_000, 'shard 0 back');
    expect(fake.identifies.map((identify) => identify.shard)).toContainEqual([0, 3]);
    expect(fake.identifies.slice(3).map((identify) => identify.shard)).toEqual([[0, 3]]);
    expect(fake.resumes).toBe(0);
    await fake.waitFor(() => client.ws.shards.get(0)?.status === Status.Ready, 5_000, 'shard 0 ready');
    const outcome = await fake.dispatchInteraction(chatInputCommand({ name: 'ping', guildId: guildIds[0] ?? '' }));
    expect(outcome.callback.data).toMatchObject({ content: 'pong from shard 0' });
  });
});

describe('fake Discord gateway refusals', () => {
  it('refuses a second session of a live shard with 4005, and takes it once the shard is free', async () => {
    const { fake } = await startSharded();
    // A session closed with 1000 is over: its shard is free again.
    expect(await identifyRaw(fake, { shard: [1, 3] })).toEqual({ code: 1000, ready: true });
    expect(await identifyRaw(fake, { shard: [1, 3] }, true)).toEqual({ code: undefined, ready: true });
    expect(await identifyRaw(fake, { shard: [1, 3] })).toEqual({
      code: GatewayCloseCodes.AlreadyAuthenticated,
      ready: false,
    });
    // Another shard of the same count is free.
    expect(await identifyRaw(fake, { shard: [2, 3] })).toEqual({ code: 1000, ready: true });
    // A dropped session (resumable) does not hold its shard: a new one may identify.
    fake.disconnectShard(1);
    expect(await identifyRaw(fake, { shard: [1, 3] })).toEqual({ code: 1000, ready: true });
  });

  it('takes a new session of a shard whose live one stopped heartbeating (a paused process), and closes that one', async () => {
    const { fake } = await startSharded({ heartbeatIntervalMs: 100 });
    const zombie = await identifyRaw(fake, { shard: [1, 3] }, true);
    expect(zombie).toEqual({ code: undefined, ready: true });
    const zombieSocket = running.sockets.at(-1);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await identifyRaw(fake, { shard: [1, 3] })).toEqual({ code: 1000, ready: true });
    await fake.waitFor(() => zombieSocket?.readyState === WebSocket.CLOSED, 2_000, 'the zombie closed');
  });

  it('refuses an invalid shard with 4010', async () => {
    const { fake } = await startSharded();
    for (const shard of [[3, 3], [-1, 3], [0, 0], [1], 'zero']) {
      expect(await identifyRaw(fake, { shard })).toEqual({ code: GatewayCloseCodes.InvalidShard, ready: false });
    }
  });

  it('refuses a shard that would hold too many guilds with 4011 (Sharding required)', async () => {
    const { fake } = await startSharded({ maxGuildsPerShard: 1 });
    expect(await identifyRaw(fake, {})).toEqual({ code: GatewayCloseCodes.ShardingRequired, ready: false });
    expect(await identifyRaw(fake, { shard: [0, 1] })).toEqual({
      code: GatewayCloseCodes.ShardingRequired,
      ready: false,
    });
    expect(await identifyRaw(fake, { shard: [0, 3] })).toEqual({ code: 1000, ready: true });
  });

  it('unsharded sessions may be several at once, as before', async () => {
    const fake = await startFakeDiscord();
    running.fake = fake;
    fake.addGuild();
    expect(fake.shardCount).toBe(1);
    expect(await identifyRaw(fake, {}, true)).toEqual({ code: undefined, ready: true });
    expect(await identifyRaw(fake, { shard: [0, 1] }, true)).toEqual({ code: undefined, ready: true });
    expect(fake.connectedSessions).toBe(2);
  });
});
