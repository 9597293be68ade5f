import { randomBytes } from 'node:crypto';
import { Status } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import {
  chatInputCommand,
  commandOption,
  guildIdOnShard,
  startFakeDiscord,
  type AddedGuild,
  type FakeDiscord,
  type FakeMessage,
} from '../../fakes/discord/index.js';
import { startBot, type RunningBot } from '../../src/bot.js';
import { COMMANDS } from '../../src/commands/index.js';
import { STILL_STARTING } from '../../src/discord/queued-interactions.js';
import { registerCommands } from '../../src/discord/register-commands.js';
import { EVENT_NAMES } from '../../src/upstream/schemas.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { clickButton } from '../helpers/click-button.js';
import { postSignedDelivery } from '../helpers/signed-delivery.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { testConfig } from '../helpers/test-config.js';

const SECRET = 'whsec_shards_e2e_0123456789';
const SHARDS = 3;

interface ShardedWorld {
  discord: FakeDiscord;
  bot: RunningBot;
  /** One guild per shard, in shard order, each with its hook. */
  guilds: Array<{ guild: AddedGuild; hookId: string; modcalls: string }>;
  health(): Promise<{ discord: string; discord_shards?: Record<string, string> }>;
  deliver(hookId: string, delivery: object): Promise<number>;
}

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * The real bot against a fake Discord that recommends 3 shards (one identify per 5 s, as for most bots), with a
 * guild on each shard whose modcalls go to its #modcalls and ping its Moderators.
 */
async function startShardedWorld(): Promise<ShardedWorld> {
  const dir = makeTempDir();
  cleanups.push(() => dir.remove());
  const logs = captureLogs('info');
  // A command sent while its shard is down waits for the resume; Discord's 3 s to answer it is widened here so a
  // slow machine does not fail that command for a reason that is not the sharding's.
  const discord = await startFakeDiscord({ shards: SHARDS, maxConcurrency: 1, interactionCallbackDeadlineMs: 15_000 });
  cleanups.push(() => discord.close());
  const added = [0, 1, 2].map((shard) =>
    discord.addGuild({
      id: guildIdOnShard(shard, SHARDS),
      name: `Community on shard ${shard}`,
      channels: [{ name: 'general' }, { name: 'modcalls' }],
      roles: [{ name: 'Moderators', mentionable: true }],
    }),
  );
  const bot = await startBot({
    config: testConfig({
      DISCORD_API_URL: discord.apiUrl,
      DISCORD_TOKEN: discord.botToken,
      STORE_URL: `sqlite://${dir.path}/bot.sqlite`,
      LOG_LEVEL: 'info',
    }),
    logger: logs.logger,
    host: '127.0.0.1',
    feed: { backoff: { baseMs: 50, capMs: 1_000 }, loginBackoff: { baseMs: 200, capMs: 2_000 } },
  });
  cleanups.push(() => bot.stop());
  const client = bot.discord;
  if (!client) throw new Error('the bot started without Discord');

  const guilds = [];
  for (const guild of added) {
    const modcalls = guild.channels['modcalls'] ?? '';
    const hookId = randomBytes(16).toString('hex');
    await bot.store.hooks.save({
      hookId,
      guildId: guild.id,
      webhookId: `wh_${guild.id}`,
      secret: SECRET,
      events: [...EVENT_NAMES],
      createdAt: Date.now(),
    });
    await bot.store.guilds.update(guild.id, (settings) => ({
      ...settings,
      routes: { modcall: modcalls },
      defaultChannelId: guild.channels['general'] ?? '',
      mentions: { modcall: guild.roles['Moderators'] ?? '' },
    }));
    // As the host would with `npm run deploy-commands -- --guild <id>`.
    await registerCommands(client.rest, COMMANDS, { guildId: guild.id });
    guilds.push({ guild, hookId, modcalls });
  }

  return {
    discord,
    bot,
    guilds,
    async health() {
      return (await (await fetch(`${bot.http.url}/healthz`)).json()) as Awaited<ReturnType<ShardedWorld['health']>>;
    },
    deliver(hookId, delivery) {
      return postSignedDelivery(bot.http.url, hookId, SECRET, delivery);
    },
  };
}

const READY_SHARDS = { '0': 'ready', '1': 'ready', '2': 'ready' };

/** `/status` in a guild: its reply, and how many callbacks answered it. */
async function status(discord: FakeDiscord, guildId: string, timeoutMs = 15_000) {
  const outcome = await discord.dispatchInteraction(chatInputCommand({ name: 'status', guildId }), { timeoutMs });
  const callbacks = discord.interactionResponses(outcome.id).filter((r) => r.kind === 'callback');
  return { text: outcome.reply?.content ?? '', callbacks: callbacks.length };
}

describe('a bot on three gateway shards', () => {
  it('answers commands and buttons in a guild on each shard once; a dropped shard resumes while the others answer', async () => {
    const world = await startShardedWorld();
    const { discord, guilds } = world;
    for (const [shard, { guild }] of guilds.entries()) expect(discord.shardOf(guild.id)).toBe(shard);

    // Discord recommended 3: the bot opened one session per shard, each identifying as [id, 3].
    await discord.waitFor(
      async () => (await world.health()).discord === 'ready',
      30_000,
      'healthz: discord ready on all shards',
    );
    expect(await world.health()).toMatchObject({ discord: 'ready', discord_shards: READY_SHARDS });
    expect(discord.identifies.map((identify) => identify.shard).sort()).toEqual([
      [0, 3],
      [1, 3],
      [2, 3],
    ]);
    expect(discord.connectedSessions).toBe(SHARDS);

    // A slash command and a modcall card's Claim in each guild: each answered exactly once.
    const cards: FakeMessage[] = [];
    for (const [shard, { guild, hookId, modcalls }] of guilds.entries()) {
      expect(await status(discord, guild.id)).toEqual({
        text: expect.stringContaining('Feed status of this server') as unknown,
        callbacks: 1,
      });
      const modcall = { ...SAMPLE_DELIVERIES.modcall, id: `call-shard-${shard}` };
      expect(await world.deliver(hookId, modcall)).toBe(204);
      const [card] = await discord.waitForMessages(modcalls, 1, 10_000);
      if (!card) throw new Error(`no modcall card on shard ${shard}`);
      cards.push(card);
      // The card is tracked once its post is acknowledged: then its buttons work.
      await discord.waitFor(
        async () => (await world.bot.store.deliveries.countOpen()) === 0,
        10_000,
        'the card posted and acknowledged',
      );
      const claim = await clickButton(discord, guild.id, card, 'Claim');
      expect(discord.interactionResponses(claim.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
      const claimed = discord.messages(modcalls).find((message) => message.id === card.id);
      expect(JSON.stringify(claimed?.embeds)).toContain(`Claimed by <@${discord.users.admin.id}>`);
      expect(discord.messages(modcalls)).toHaveLength(1);
    }

    // Shard 1's connection drops and its gateway node is slow to take it back.
    discord.holdShard(1);
    discord.disconnectShard(1);
    await discord.waitFor(
      async () => (await world.health()).discord_shards?.['1'] !== 'ready',
      5_000,
      'healthz: shard 1 down',
    );
    const down = await world.health();
    expect(down.discord).toBe('connecting');
    expect(down.discord_shards).toMatchObject({ '0': 'ready', '2': 'ready' });
    // A command in shard 1's guild waits for it; the guilds of shards 0 and 2 are answered meanwhile.
    const [onZero, onOne, onTwo] = guilds.map((entry) => entry.guild.id) as [string, string, string];
    const waiting = status(discord, onOne);
    expect(await status(discord, onZero)).toMatchObject({ callbacks: 1 });
    expect(await status(discord, onTwo)).toMatchObject({ callbacks: 1 });
    const resolveClick = await clickButton(discord, onTwo, cards[2] as FakeMessage, 'Resolve');
    expect(discord.interactionResponses(resolveClick.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
    expect(discord.connectedSessions).toBe(SHARDS - 1);

    // Back: shard 1 resumes its session (no new IDENTIFY), gets the command it missed and answers it once.
    const sessionOfOne = discord.gatewaySessionList.find((session) => session.shard[0] === 1)?.sessionId;
    discord.releaseShard(1);
    expect(await waiting).toEqual({
      text: expect.stringContaining('Feed status of this server') as unknown,
      callbacks: 1,
    });
    await discord.waitFor(
      async () => (await world.health()).discord === 'ready',
      10_000,
      'healthz: discord ready again',
    );
    expect(await world.health()).toMatchObject({ discord: 'ready', discord_shards: READY_SHARDS });
    expect(discord.resumeLog.map((resume) => ({ session: resume.sessionId, shard: resume.shard }))).toEqual([
      { session: sessionOfOne, shard: [1, 3] },
    ]);
    expect(discord.identifies).toHaveLength(SHARDS);
    expect(discord.connectedSessions).toBe(SHARDS);

    // And a button in shard 1's guild after the resume.
    const resolved = await clickButton(discord, onOne, cards[1] as FakeMessage, 'Resolve');
    expect(discord.interactionResponses(resolved.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
    expect(JSON.stringify(discord.messages(guilds[1]?.modcalls ?? '')[0]?.embeds)).toContain('Resolved by');
    expect(discord.violations).toEqual([]);
  }, 90_000);

  it('answers a command sent before every shard is up that the bot is still starting, within 3 s, and never runs it', async () => {
    const world = await startShardedWorld();
    const { discord, bot, guilds } = world;
    const client = bot.discord;
    const [first] = guilds;
    if (!client || !first) throw new Error('the world has no client or no guild');
    // Shard 0 is up; shards 1 and 2 identify 5 s apart after it, and discord.js holds shard 0's interactions until
    // they are up too.
    await discord.waitFor(() => client.ws.shards.get(0)?.status === Status.Ready, 10_000, 'shard 0 ready');
    expect(client.ws.status).not.toBe(Status.Ready);

    // An admin moves the modcalls to #general. Discord allows 3 s for the answer.
    const moveModcalls = chatInputCommand({
      name: 'feed',
      subcommand: 'set',
      options: [
        commandOption.string('event', 'modcall'),
        commandOption.channel('channel', first.guild.channels['general'] ?? ''),
      ],
      as: 'admin',
      guildId: first.guild.id,
    });
    const queued = await discord.dispatchInteraction(moveModcalls, { timeoutMs: 3_000, settle: 'callback' });
    expect(queued.reply).toMatchObject({ content: STILL_STARTING, ephemeral: true });

    // Every shard up: discord.js hands the queued command over; it is neither run nor answered again.
    await discord.waitFor(async () => (await world.health()).discord === 'ready', 30_000, 'healthz: discord ready');
    expect(await status(discord, first.guild.id)).toMatchObject({ callbacks: 1 });
    expect(discord.interactionResponses(queued.id).filter((r) => r.kind === 'callback')).toHaveLength(1);
    expect((await bot.store.guilds.get(first.guild.id)).routes['modcall']).toBe(first.modcalls);
    expect(discord.violations).toEqual([]);
  }, 60_000);
});
