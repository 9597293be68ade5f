import { randomBytes } from 'node:crypto';

import type { BackoffPolicy } from '../../src/base/backoff.js';
import type { Config } from '../../src/base/config.js';
import { createLogger } from '../../src/base/logger.js';
import { startBot, type RunningBot } from '../../src/bot.js';
import type { RouteRule } from '../../src/store/guild-settings.js';
import { sleep } from './stats.js';
import { wallClockMs } from './timing.js';

/**
 * The real bot (intake, SQLite outbox, feed, discord.js) as the feed benchmarks run it: started with startBot
 * against a fake Discord, one hook, and routes set the way /feed set would set them.
 */

export interface FeedBotOptions {
  /** The fake Discord's REST base (`fake.apiUrl`) and bot token. */
  apiUrl: string;
  token: string;
  /** A directory of its own for the SQLite file; the caller creates and removes it. */
  storeDir: string;
  guildId: string;
  /** Event name -> channel id. */
  routes: Record<string, string>;
  /** The webhook secret of the hook. */
  secret: string;
  /** The feed's backoff after failed sends; the bot's default when absent. */
  backoff?: BackoffPolicy;
  /** More guilds, each with a hook of its own (the same secret) and routed by rules (e.g. one game server each). */
  moreGuilds?: readonly RuledGuild[];
  /** How long the discord.js client may take to be ready (every shard identified, every guild received); 15 s. */
  readyTimeoutMs?: number;
}

/** A guild of {@link FeedBotOptions.moreGuilds}: its rules as `/feed set` with a server would store them. */
export interface RuledGuild {
  guildId: string;
  rules: RouteRule[];
}

/** A bot started again on the store file of an earlier one: its hook and routes are in the file already. */
export interface ResumeOptions {
  apiUrl: string;
  token: string;
  storeDir: string;
  guildId: string;
  hookId: string;
}

export interface FeedBot {
  bot: RunningBot;
  /** Wall-clock times (ms since the Unix epoch) at which startBot resolved and the discord.js client was ready. */
  startBotAt: number;
  readyAt: number;
  hookId: string;
  guildId: string;
  /** Where deliveries go: `<intake>/webhooks/<hookId>`. */
  webhookUrl: string;
  /** The hooks of FeedBotOptions.moreGuilds, in their order. */
  moreWebhookUrls: string[];
  /** The SQLite file the bot's store lives in. */
  storeFile: string;
  /** Warnings and errors the bot logged (retries, refusals): a clean run logs none. */
  warnings(): { count: number; first: string[] };
  stop(): Promise<void>;
}

/** The SQLite file of a bot whose store lives in `storeDir`. */
export function storeFileOf(storeDir: string): string {
  return `${storeDir}/feed.sqlite`;
}

/** The bot logs at `warn` into a counter: a healthy run logs nothing there, and retries or refusals show. */
function warningCounter() {
  const first: string[] = [];
  let count = 0;
  const destination = {
    write(line: string) {
      count += 1;
      if (first.length < 5) first.push(line.trim());
    },
  };
  return { logger: createLogger('warn', destination), read: () => ({ count, first: [...first] }) };
}

/** startBot as main.ts runs it, against the fake; resolves once the discord.js client is ready (the feed starts). */
async function launch(
  options: Pick<FeedBotOptions, 'apiUrl' | 'token' | 'storeDir' | 'backoff' | 'readyTimeoutMs'>,
): Promise<{
  bot: RunningBot;
  warnings: () => { count: number; first: string[] };
  startBotAt: number;
  readyAt: number;
}> {
  const warnings = warningCounter();
  const config: Config = {
    DISCORD_TOKEN: options.token,
    PUBLIC_URL: 'https://bench.example',
    PORT: 0,
    METRICS_HOST: '127.0.0.1',
    STORE_URL: `sqlite://${storeFileOf(options.storeDir)}`,
    SERVICE_URL: 'https://service.example',
    DISCORD_API_URL: options.apiUrl,
    LOG_LEVEL: 'warn',
    ROLE: 'all',
    REPLAY_WINDOW_HOURS: 24,
  };
  // The REST options the real bot runs with (main.ts passes none): discord.js defaults, offset 50 ms included.
  const bot = await startBot({
    config,
    logger: warnings.logger,
    host: '127.0.0.1',
    ...(options.backoff ? { feed: { backoff: options.backoff } } : {}),
  });
  const startBotAt = wallClockMs();
  try {
    const client = bot.discord;
    if (!client) throw new Error('the bot started without Discord');
    const timeoutMs = options.readyTimeoutMs ?? 15_000;
    const deadline = Date.now() + timeoutMs;
    while (!client.isReady()) {
      if (Date.now() > deadline) throw new Error(`the bot was not ready within ${timeoutMs / 1000} s`);
      await sleep(10);
    }
    return { bot, warnings: warnings.read, startBotAt, readyAt: wallClockMs() };
  } catch (error) {
    await bot.stop();
    throw error;
  }
}

/** Saves a hook of `guildId` with every event, as /webhook register would; returns its id. */
async function saveHook(bot: RunningBot, guildId: string, secret: string): Promise<string> {
  const hookId = randomBytes(16).toString('hex');
  await bot.store.hooks.save({
    hookId,
    guildId,
    webhookId: 'wh_feed_bench',
    secret,
    events: ['all'],
    createdAt: Date.now(),
  });
  return hookId;
}

/** Starts the bot, waits until its discord.js client is ready (the feed starts then), saves the hook and routes. */
export async function startFeedBot(options: FeedBotOptions): Promise<FeedBot> {
  const { bot, warnings, startBotAt, readyAt } = await launch(options);
  try {
    const hookId = await saveHook(bot, options.guildId, options.secret);
    await bot.store.guilds.update(options.guildId, (settings) => ({
      ...settings,
      routes: { ...options.routes },
      mentions: {},
    }));
    const moreWebhookUrls: string[] = [];
    for (const guild of options.moreGuilds ?? []) {
      moreWebhookUrls.push(`${bot.http.url}/webhooks/${await saveHook(bot, guild.guildId, options.secret)}`);
      await bot.store.guilds.update(guild.guildId, (settings) => ({
        ...settings,
        rules: [...guild.rules],
        mentions: {},
      }));
    }
    return {
      bot,
      startBotAt,
      readyAt,
      hookId,
      guildId: options.guildId,
      webhookUrl: `${bot.http.url}/webhooks/${hookId}`,
      moreWebhookUrls,
      storeFile: storeFileOf(options.storeDir),
      warnings,
      stop: () => bot.stop(),
    };
  } catch (error) {
    await bot.stop();
    throw error;
  }
}

/** Starts the bot on an existing store file (a restart) and says when startBot resolved and the client was ready. */
export async function resumeFeedBot(
  options: ResumeOptions,
): Promise<{ feed: FeedBot; startBotAt: number; readyAt: number }> {
  const { bot, warnings, startBotAt, readyAt } = await launch(options);
  return {
    feed: {
      bot,
      startBotAt,
      readyAt,
      hookId: options.hookId,
      guildId: options.guildId,
      webhookUrl: `${bot.http.url}/webhooks/${options.hookId}`,
      moreWebhookUrls: [],
      storeFile: storeFileOf(options.storeDir),
      warnings,
      stop: () => bot.stop(),
    },
    startBotAt,
    readyAt,
  };
}

/** Resolves once the outbox is empty: every entry's message confirmed by Discord and removed. */
export async function waitForEmptyOutbox(bot: RunningBot, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let open = await bot.store.deliveries.countOpen(); open > 0; open = await bot.store.deliveries.countOpen()) {
    if (Date.now() > deadline) throw new Error(`the store still holds ${open} open entries after ${timeoutMs} ms`);
    await sleep(10);
  }
}
