import { randomBytes } from 'node:crypto';

import {
  chatInputCommand,
  commandOption,
  startFakeDiscord,
  type AddedGuild,
  type CommandOptionValue,
  type FakeDiscord,
  type FakeDiscordOptions,
} from '../../fakes/discord/index.js';
import type { Config } from '../../src/base/config.js';
import type { Timers } from '../../src/base/timers.js';
import { startBot, type RunningBot } from '../../src/bot.js';
import type { FeatureTimings } from '../../src/features/index.js';
import type { BatchWindow } from '../../src/feed/batch-window.js';
import type { FeedOptions } from '../../src/start-feed.js';
import { EVENT_NAMES } from '../../src/upstream/schemas.js';
import { TEST_ROUTES } from '../fixtures/routes.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { postSignedDelivery } from '../helpers/signed-delivery.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { testConfig } from '../helpers/test-config.js';

export const FEED_SECRET = 'whsec_feed_e2e_0123456789';
export const FEED_CHANNELS = ['cases', 'modcalls', 'sessions', 'shifts', 'other', 'backup'] as const;
export type FeedChannel = (typeof FEED_CHANNELS)[number];

const ROUTES = TEST_ROUTES;

/** The real bot (intake, outbox, discord.js) against the fake Discord, with one hook and the routes above. */
export interface FeedHarness {
  discord: FakeDiscord;
  bot: RunningBot;
  guild: AddedGuild;
  hookId: string;
  moderatorsRoleId: string;
  logs: ReturnType<typeof captureLogs>;
  /** The bot's SQLite file. */
  storeFile: string;
  channel(name: FeedChannel): string;
  /** Signs and posts a delivery to the intake; resolves with the HTTP status. */
  deliver(delivery: object): Promise<number>;
  /** Stops the bot (gracefully) and starts a new one on the same SQLite file (after `whileStopped`, if given). */
  restart(whileStopped?: () => Promise<void>): Promise<void>;
  stop(): Promise<void>;
}

export interface FeedHarnessOptions {
  discord?: FakeDiscordOptions;
  restTimeoutMs?: number;
  /** Runs on the fake before the bot starts (e.g. to make Discord fail from the first request). */
  beforeStart?: (discord: FakeDiscord) => void;
  /** false: do not wait for the bot to be ready (Discord may be down); the intake is up either way. */
  waitForReady?: boolean;
  /** How long a part-filled message waits for more (default the bot's: 20 ms quiet, 200 ms in all). */
  batchWindow?: BatchWindow;
  /** How long the bot takes Discord to recognise a nonce (set it with the fake's `nonceWindowMs`). */
  nonceWindowMs?: number;
  /** A shorter "minute" for modcall escalation. */
  escalationTimings?: FeatureTimings['escalation'];
  /** The health monitor's timings (how soon a failed alert is tried again). */
  healthTimings?: FeatureTimings['health'];
  /** The weekly digest's timings (how often it looks for digests due). */
  digestTimings?: FeatureTimings['digest'];
  /** Permissions the bot is denied in some channels (a channel overwrite, as a server admin would set). */
  denyBot?: Partial<Record<FeedChannel, bigint>>;
  /** What the bot's role grants (the fake's default: View Channel, Send Messages, Embed Links, Read History). */
  botPermissions?: bigint;
  /** The session threads' timings. */
  threadTimings?: FeatureTimings['threads'];
  /** The duty board's timings. */
  dutyTimings?: FeatureTimings['duty'];
  /** Variables set besides the harness's own (e.g. METRICS_PORT, or a PostgreSQL STORE_URL). */
  config?: Partial<Config>;
  /** How feed processes share the work on PostgreSQL (a test's shorter rebalance). */
  leases?: FeedOptions['leases'];
  /** The features' timers (a test counting the jobs' runs wraps the runtime's). */
  timers?: Timers;
}

export async function startFeedHarness(options: FeedHarnessOptions = {}): Promise<FeedHarness> {
  const dir = makeTempDir();
  const logs = captureLogs('debug');
  const discord = await startFakeDiscord(options.discord);
  const guild = discord.addGuild({
    name: 'Feed Guild',
    channels: FEED_CHANNELS.map((name) => {
      const denied = options.denyBot?.[name];
      return denied === undefined ? { name } : { name, denyBot: denied };
    }),
    roles: [
      { name: 'Moderators', mentionable: true },
      { name: 'Leads', mentionable: true },
    ],
    ...(options.botPermissions === undefined ? {} : { botPermissions: options.botPermissions }),
  });
  const moderatorsRoleId = guild.roles.Moderators;
  if (!moderatorsRoleId) throw new Error('no Moderators role');
  const channel = (name: FeedChannel) => {
    const id = guild.channels[name];
    if (!id) throw new Error(`no channel ${name}`);
    return id;
  };

  const start = async () => {
    const bot = await startBot({
      config: testConfig({
        DISCORD_API_URL: discord.apiUrl,
        DISCORD_TOKEN: discord.botToken,
        STORE_URL: `sqlite://${dir.path}/bot.sqlite`,
        LOG_LEVEL: 'debug',
        ...options.config,
      }),
      logger: logs.logger,
      host: '127.0.0.1',
      ...(options.timers ? { timers: options.timers } : {}),
      timings: {
        ...(options.escalationTimings ? { escalation: options.escalationTimings } : {}),
        ...(options.digestTimings ? { digest: options.digestTimings } : {}),
        ...(options.healthTimings ? { health: options.healthTimings } : {}),
        ...(options.threadTimings ? { threads: options.threadTimings } : {}),
        ...(options.dutyTimings ? { duty: options.dutyTimings } : {}),
      },
      feed: {
        backoff: { baseMs: 50, capMs: 1_000 },
        loginBackoff: { baseMs: 200, capMs: 2_000 },
        rest: { timeout: options.restTimeoutMs ?? 15_000 },
        ...(options.batchWindow ? { batchWindow: options.batchWindow } : {}),
        ...(options.nonceWindowMs === undefined ? {} : { nonceWindowMs: options.nonceWindowMs }),
        ...(options.leases ? { leases: options.leases } : {}),
      },
    });
    const client = bot.discord;
    if (!client) throw new Error('the bot started without Discord');
    // Ready as /healthz says it: its client (SQLite), or every shard the process holds (PostgreSQL spreads them).
    if (options.waitForReady !== false) {
      await discord.waitFor(() => bot.discordHealth.state === 'ready', 10_000, 'the bot ready');
    }
    return bot;
  };

  options.beforeStart?.(discord);
  let bot = await start();
  const hookId = randomBytes(16).toString('hex');
  await bot.store.hooks.save({
    hookId,
    guildId: guild.id,
    webhookId: 'wh_feed',
    secret: FEED_SECRET,
    events: [...EVENT_NAMES],
    createdAt: Date.now(),
  });
  await bot.store.guilds.update(guild.id, (settings) => ({
    ...settings,
    routes: Object.fromEntries(Object.entries(ROUTES).map(([event, name]) => [event, channel(name)])),
    defaultChannelId: channel('other'),
    mentions: { modcall: moderatorsRoleId },
  }));

  return {
    discord,
    get bot() {
      return bot;
    },
    guild,
    hookId,
    moderatorsRoleId,
    logs,
    storeFile: `${dir.path}/bot.sqlite`,
    channel,
    deliver(delivery) {
      return postSignedDelivery(bot.http.url, hookId, FEED_SECRET, delivery);
    },
    async restart(whileStopped) {
      await bot.stop();
      await whileStopped?.();
      bot = await start();
    },
    async stop() {
      await bot.stop();
      await discord.close();
      dir.remove();
    },
  };
}

/** The delivery ids a channel's messages carry, in the order Discord received them (from embed footers). */
export function postedDeliveryIds(discord: FakeDiscord, channelId: string): string[] {
  return discord
    .messages(channelId)
    .flatMap((message) => message.embeds.map((embed) => /Delivery (\S+)$/.exec(embed.footer?.text ?? '')?.[1] ?? '?'));
}

/** An admin's `/feed <subcommand>` with these options in the harness's guild; resolves with the reply's text. */
export async function runFeedCommand(
  h: FeedHarness,
  subcommand: string,
  options: CommandOptionValue[],
): Promise<string | undefined> {
  const draft = chatInputCommand({ name: 'feed', subcommand, options, as: 'admin', guildId: h.guild.id });
  return (await h.discord.dispatchInteraction(draft)).reply?.content;
}

/** An admin's `/feed mention event:modcall escalate-after: escalate-role:`; resolves with the reply's text. */
export function setEscalation(h: FeedHarness, afterMinutes: number, roleId: string): Promise<string | undefined> {
  return runFeedCommand(h, 'mention', [
    commandOption.string('event', 'modcall'),
    commandOption.integer('escalate-after', afterMinutes),
    commandOption.role('escalate-role', roleId),
  ]);
}
