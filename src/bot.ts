import { Events, type Client } from 'discord.js';

import { DEFAULT_PING_TIMEOUT_MS, type CommandContext } from '../commands/context.js';
import { COMMANDS } from '../commands/index.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { createChannelSender } from './discord/channel-sender.js';
import { connectDiscord, type DiscordConnection } from './discord/connect-discord.js';
import { createDiscordClient, type DiscordClientOptions } from './discord/create-client.js';
import { DiscordHealth } from './discord/discord-health.js';
import { attachInteractionDispatcher } from './discord/interaction-dispatch.js';
import type { BackoffPolicy } from './feed/backoff.js';
import { FeedWorker } from './feed/feed-worker.js';
import { listen, readTlsFiles, type RunningServer } from './http-server.js';
import { createApp } from './intake/create-app.js';
import type { Logger } from './logger.js';
import { openStore, type Store } from './store/open-store.js';
import { createSecretBox, type SecretBox } from './store/secret-box.js';
import { createServiceClient } from './upstream/client.js';

/** A running bot: what tests, the demo and main.ts hold on to. */
export interface RunningBot {
  store: Store;
  http: RunningServer;
  secrets: SecretBox;
  /** The discord.js client and the feed, absent when started with `feed: false`. */
  discord: Client | undefined;
  feed: FeedWorker | undefined;
  discordHealth: DiscordHealth;
  stop(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Milliseconds since the Unix epoch. */
  clock?: Clock;
  /** Host to bind; tests use 127.0.0.1. */
  host?: string;
  /** `false`: intake only, no Discord (the intake's own tests and benchmarks). */
  feed?:
    | false
    | {
        rest?: DiscordClientOptions['rest'];
        backoff?: BackoffPolicy;
        /** Between failed logins (default: 2 s doubling to 2 min). */
        loginBackoff?: BackoffPolicy;
      };
  /**
   * The base of the address the service is told to post to, given the intake's own URL; default PUBLIC_URL.
   * Tests return the intake's http://127.0.0.1 address, which PUBLIC_URL (https only) cannot be.
   */
  webhookBaseUrl?: (intakeUrl: string) => string;
}

/** Delivery ids are remembered this long after their event was posted; the service may retry for 24 h. */
export const POSTED_ID_TTL_MS = 25 * 60 * 60 * 1000;
/** How often posted deliveries past that are swept out of the store. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The composition root shared by main.ts, the tests and the demo: store -> intake (HTTP) -> Discord -> feed.
 * The intake answers the service from the first moment, whatever Discord does; the feed starts once Discord is
 * ready. Stopping reverses it: stop accepting, finish requests and sends in flight, log out, close the store.
 */
export async function startBot(options: StartOptions): Promise<RunningBot> {
  const { config, logger } = options;
  const clock = options.clock ?? Date.now;
  const store = await openStore(config.STORE_URL, clock);
  const secrets = createSecretBox(config.SECRET_KEY);
  const discord =
    options.feed === false
      ? undefined
      : createDiscordClient({
          apiUrl: config.DISCORD_API_URL,
          ...(options.feed?.rest ? { rest: options.feed.rest } : {}),
        });
  const discordHealth = new DiscordHealth(discord, clock);

  const app = createApp({
    hooks: store.hooks,
    deliveries: store.deliveries,
    activity: store.activity,
    secrets,
    clock,
    logger,
    health: async () => ({
      store: store.kind,
      outbox: await store.deliveries.countOpen(),
      discord: discordHealth.state,
    }),
  });
  let http: RunningServer;
  try {
    http = await listen(app, config.PORT, options.host, readTlsFiles(config.TLS_CERT, config.TLS_KEY));
  } catch (error) {
    await store.close();
    throw error;
  }
  logger.info({ port: http.port, https: http.url.startsWith('https:'), store: store.kind }, 'intake listening');

  const sweep = setInterval(() => {
    store.deliveries
      .sweepPosted(clock() - POSTED_ID_TTL_MS)
      .catch((error: unknown) => logger.warn({ err: error }, 'sweeping posted deliveries failed'));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();

  let feed: FeedWorker | undefined;
  let connection: DiscordConnection | undefined;
  const stop = async () => {
    clearInterval(sweep);
    connection?.stop();
    await http.close();
    await feed?.stop();
    await discord?.destroy();
    await store.close();
    logger.info('stopped');
  };

  if (discord) {
    const feedOptions = options.feed === false ? {} : (options.feed ?? {});
    const worker = new FeedWorker({
      queue: store.deliveries,
      guilds: store.guilds,
      signals: store.signals,
      send: createChannelSender(discord, config.DISCORD_TOKEN),
      logger,
      clock,
      onSendOutcome: (failure) => discordHealth.noteSend(failure),
      ...(feedOptions.backoff ? { backoff: feedOptions.backoff } : {}),
    });
    feed = worker;
    const commandContext: CommandContext = {
      hooks: store.hooks,
      guilds: store.guilds,
      deliveries: store.deliveries,
      activity: store.activity,
      signals: store.signals,
      secrets,
      service: createServiceClient({ serviceUrl: config.SERVICE_URL }),
      publicUrl: config.PUBLIC_URL,
      webhookBaseUrl: options.webhookBaseUrl?.(http.url) ?? config.PUBLIC_URL,
      discordHealth,
      logger,
      clock,
      client: discord,
      pingTimeoutMs: DEFAULT_PING_TIMEOUT_MS,
    };
    // Registering the commands with Discord is `npm run deploy-commands`, run once by the host, never here.
    attachInteractionDispatcher(discord, COMMANDS, commandContext, logger);
    discord.once(Events.ClientReady, (client) => {
      logger.info({ user: client.user.tag, guilds: client.guilds.cache.size }, 'Discord ready: feed starting');
      worker.start().catch((error: unknown) => logger.error({ err: error }, 'the feed could not start'));
    });
    try {
      connection = await connectDiscord(discord, config.DISCORD_TOKEN, {
        logger,
        ...(feedOptions.loginBackoff ? { backoff: feedOptions.loginBackoff } : {}),
      });
    } catch (error) {
      await stop();
      throw error;
    }
  }

  return { store, http, secrets, discord, feed, discordHealth, stop };
}
