import { Events, type Client } from 'discord.js';

import type { Config } from './config.js';
import { attachCommands } from './discord/attach-commands.js';
import { createChannelSender } from './discord/channel-sender.js';
import { createDiscordClient, type DiscordClientOptions } from './discord/create-client.js';
import { listen, readTlsFiles, type RunningServer } from './http-server.js';
import { DeliveryAcceptor } from './intake/accept-delivery.js';
import { createApp } from './intake/create-app.js';
import { HookActivity } from './intake/hook-activity.js';
import type { Logger } from './logger.js';
import type { BackoffPolicy } from './outbox/backoff.js';
import { OutboxWorker } from './outbox/worker.js';
import { openStore, type Store } from './store/open-store.js';
import { createSecretBox, type SecretBox } from './store/secret-box.js';

/** A running bot: what tests, the demo and main.ts hold on to. */
export interface RunningBot {
  store: Store;
  http: RunningServer;
  secrets: SecretBox;
  /** The discord.js client and the feed, absent when started with `feed: false`. */
  discord: Client | undefined;
  worker: OutboxWorker | undefined;
  activity: HookActivity;
  stop(): Promise<void>;
}

export interface StartOptions {
  config: Config;
  logger: Logger;
  /** Milliseconds since the Unix epoch. */
  clock?: () => number;
  /** Host to bind; tests use 127.0.0.1. */
  host?: string;
  /** `false`: intake only, no Discord (the intake's own tests and benchmarks). */
  feed?: false | { rest?: DiscordClientOptions['rest']; backoff?: BackoffPolicy };
  /**
   * The base of the address the service is told to post to, given the intake's own URL; default PUBLIC_URL.
   * Tests return the intake's http://127.0.0.1 address, which PUBLIC_URL (https only) cannot be.
   */
  webhookBaseUrl?: (intakeUrl: string) => string;
}

/** How often expired seen ids are swept out of stores without a TTL of their own (SQLite). */
const SEEN_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * The composition root shared by main.ts, the tests and the demo: store -> intake (HTTP) -> Discord -> feed.
 * The intake answers the service from the first moment, Discord or not; the feed starts once Discord is ready.
 * Stopping reverses it: stop accepting, finish requests and sends in flight, log out, close the store.
 */
export async function startBot(options: StartOptions): Promise<RunningBot> {
  const { config, logger } = options;
  const clock = options.clock ?? Date.now;
  const store = await openStore(config.STORE_URL, clock);
  const secrets = createSecretBox(config.SECRET_KEY);
  const acceptor = new DeliveryAcceptor(store.outbox, store.seen);
  const activity = new HookActivity();

  let discord: Client | undefined;
  let worker: OutboxWorker | undefined;
  const app = createApp({
    hooks: store.hooks,
    acceptor,
    secrets,
    clock,
    logger,
    activity,
    health: () => ({
      store: store.kind,
      outbox: store.outbox.size,
      discord: discord ? (discord.isReady() ? 'ready' : 'connecting') : 'off',
    }),
  });
  let http: RunningServer;
  try {
    http = await listen(app, config.PORT, options.host, readTlsFiles(config.TLS_CERT, config.TLS_KEY));
  } catch (error) {
    await store.close();
    throw error;
  }
  logger.info(
    { port: http.port, https: http.url.startsWith('https:'), store: store.kind, waiting: store.outbox.size },
    'intake listening',
  );

  const sweep = setInterval(() => {
    store.seen.sweepExpired().catch((error: unknown) => logger.warn({ err: error }, 'sweeping seen ids failed'));
  }, SEEN_SWEEP_INTERVAL_MS);
  sweep.unref();

  const stop = async () => {
    clearInterval(sweep);
    await http.close();
    await worker?.stop();
    await discord?.destroy();
    await store.close();
    logger.info('stopped');
  };

  if (options.feed !== false) {
    const feedOptions = options.feed ?? {};
    discord = createDiscordClient({
      apiUrl: config.DISCORD_API_URL,
      ...(feedOptions.rest ? { rest: feedOptions.rest } : {}),
    });
    const feed = new OutboxWorker({
      outbox: store.outbox,
      seen: store.seen,
      guilds: store.guilds,
      sends: store.sends,
      send: createChannelSender(discord),
      logger,
      ...(feedOptions.backoff ? { backoff: feedOptions.backoff } : {}),
    });
    worker = feed;
    attachCommands({
      client: discord,
      config,
      store,
      secrets,
      activity,
      worker: feed,
      logger,
      clock,
      ...(options.webhookBaseUrl ? { webhookBaseUrl: options.webhookBaseUrl(http.url) } : {}),
    });
    discord.once(Events.ClientReady, (client) => {
      logger.info({ user: client.user.tag, guilds: client.guilds.cache.size }, 'Discord ready: feed starting');
      feed.start();
    });
    try {
      await discord.login(config.DISCORD_TOKEN);
    } catch (error) {
      await stop();
      throw error;
    }
  }

  return { store, http, secrets, discord, worker, activity, stop };
}
