import { randomBytes } from 'node:crypto';

import { startBot, type RunningBot } from '../../src/bot.js';
import type { Config } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import { sleep } from './stats.js';

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
}

export interface FeedBot {
  bot: RunningBot;
  /** Where deliveries go: `<intake>/webhooks/<hookId>`. */
  webhookUrl: string;
  /** Warnings and errors the bot logged (retries, refusals): a clean run logs none. */
  warnings(): { count: number; first: string[] };
  stop(): Promise<void>;
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

/** Starts the bot, waits until its discord.js client is ready (the feed starts then), saves the hook and routes. */
export async function startFeedBot(options: FeedBotOptions): Promise<FeedBot> {
  const warnings = warningCounter();
  const config: Config = {
    DISCORD_TOKEN: options.token,
    PUBLIC_URL: 'https://bench.example',
    PORT: 0,
    STORE_URL: `sqlite://${options.storeDir}/feed.sqlite`,
    SERVICE_URL: 'https://service.example',
    DISCORD_API_URL: options.apiUrl,
    LOG_LEVEL: 'warn',
    ROLE: 'all',
  };
  // The REST options the real bot runs with (main.ts passes none): discord.js defaults, offset 50 ms included.
  const bot = await startBot({ config, logger: warnings.logger, host: '127.0.0.1' });
  try {
    const client = bot.discord;
    if (!client) throw new Error('the bot started without Discord');
    const deadline = Date.now() + 15_000;
    while (!client.isReady()) {
      if (Date.now() > deadline) throw new Error('the bot was not ready within 15 s');
      await sleep(10);
    }
    const hookId = randomBytes(16).toString('hex');
    await bot.store.hooks.save({
      hookId,
      guildId: options.guildId,
      webhookId: 'wh_feed_bench',
      secret: options.secret,
      events: ['all'],
      createdAt: Date.now(),
    });
    await bot.store.guilds.update(options.guildId, (settings) => ({
      ...settings,
      routes: { ...options.routes },
      mentions: {},
    }));
    return { bot, webhookUrl: `${bot.http.url}/webhooks/${hookId}`, warnings: warnings.read, stop: () => bot.stop() };
  } catch (error) {
    await bot.stop();
    throw error;
  }
}

/** Resolves once the outbox is empty: every entry's message confirmed by Discord and removed. */
export async function waitForEmptyOutbox(bot: RunningBot, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (let open = await bot.store.deliveries.countOpen(); open > 0; open = await bot.store.deliveries.countOpen()) {
    if (Date.now() > deadline) throw new Error(`the store still holds ${open} open entries after ${timeoutMs} ms`);
    await sleep(10);
  }
}
