import { Events, type Client } from 'discord.js';

import { DEFAULT_PING_TIMEOUT_MS, type CommandContext } from '../commands/context.js';
import { COMMANDS } from '../commands/index.js';
import { createCardPoster } from './apps/card-poster.js';
import { DeveloperCache } from './apps/developer-cache.js';
import { createAttachmentDownloader } from './apps/download-attachment.js';
import { DraftStore } from './apps/drafts.js';
import { openKeyvAppRecords, type ClosableAppRecords } from './apps/keyv-app-records.js';
import { ReleasePoller, type PollIntervals } from './apps/release-poller.js';
import { SYSTEM_TIMERS, type Timers } from './apps/timers.js';
import type { Config } from './config.js';
import { createChannelSender } from './discord/channel-sender.js';
import { createDiscordClient, type DiscordClientOptions } from './discord/create-client.js';
import { attachInteractionDispatcher } from './discord/interaction-dispatch.js';
import type { BackoffPolicy } from './feed/backoff.js';
import { FeedWorker } from './feed/feed-worker.js';
import { listen, readTlsFiles, type RunningServer } from './http-server.js';
import { DeliveryAcceptor } from './intake/accept-delivery.js';
import { createApp } from './intake/create-app.js';
import type { Logger } from './logger.js';
import { HookActivity } from './store/hook-activity.js';
import { openStore, type Store } from './store/open-store.js';
import { createSecretBox, type SecretBox } from './store/secret-box.js';
import { createServiceClient } from './upstream/client.js';
import { createDeveloperClient } from './upstream/developer-client.js';

/** A running bot: what tests, the demo and main.ts hold on to. */
export interface RunningBot {
  store: Store;
  http: RunningServer;
  secrets: SecretBox;
  /** The discord.js client and the feed, absent when started with `feed: false`. */
  discord: Client | undefined;
  feed: FeedWorker | undefined;
  activity: HookActivity;
  /** The developer API's records, and the release poller (absent when started with `feed: false`). */
  apps: { records: ClosableAppRecords; poller: ReleasePoller | undefined };
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
  /** The release poller's timers; tests pass ones driven by their fake clock. */
  timers?: Timers;
  /** The release poller's intervals; the demo shortens them. */
  releasePolling?: Partial<PollIntervals>;
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
  let appRecords: ClosableAppRecords;
  try {
    appRecords = await openKeyvAppRecords(config.STORE_URL);
  } catch (error) {
    await store.close();
    throw error;
  }
  const secrets = createSecretBox(config.SECRET_KEY);
  const acceptor = new DeliveryAcceptor(store.outbox, store.seen);
  const activity = new HookActivity();

  let discord: Client | undefined;
  let feed: FeedWorker | undefined;
  let poller: ReleasePoller | undefined;
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
    await appRecords.close();
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
    await poller?.stop();
    await feed?.stop();
    await discord?.destroy();
    await appRecords.close();
    await store.close();
    logger.info('stopped');
  };

  if (options.feed !== false) {
    const feedOptions = options.feed ?? {};
    discord = createDiscordClient({
      apiUrl: config.DISCORD_API_URL,
      ...(feedOptions.rest ? { rest: feedOptions.rest } : {}),
    });
    const worker = new FeedWorker({
      outbox: store.outbox,
      seen: store.seen,
      guilds: store.guilds,
      sends: store.sends,
      send: createChannelSender(discord),
      logger,
      clock,
      ...(feedOptions.backoff ? { backoff: feedOptions.backoff } : {}),
    });
    feed = worker;
    const developer = createDeveloperClient({ serviceUrl: config.SERVICE_URL, clock });
    const developerCache = new DeveloperCache(clock);
    const releases = new ReleasePoller({
      records: appRecords,
      developer,
      secrets,
      poster: createCardPoster(discord),
      cache: developerCache,
      clock,
      timers: options.timers ?? SYSTEM_TIMERS,
      logger,
      ...(options.releasePolling ? { intervals: options.releasePolling } : {}),
    });
    poller = releases;
    const commandContext: CommandContext = {
      hooks: store.hooks,
      guilds: store.guilds,
      activity,
      secrets,
      service: createServiceClient({ serviceUrl: config.SERVICE_URL }),
      publicUrl: config.PUBLIC_URL,
      webhookBaseUrl: options.webhookBaseUrl?.(http.url) ?? config.PUBLIC_URL,
      feed: worker,
      logger,
      clock,
      client: discord,
      pingTimeoutMs: DEFAULT_PING_TIMEOUT_MS,
      appRecords,
      developer,
      developerCache,
      releases,
      appDrafts: new DraftStore(clock),
      downloadAttachment: createAttachmentDownloader(),
    };
    // Registering the commands with Discord is `npm run deploy-commands`, run once by the host, never here.
    attachInteractionDispatcher(discord, COMMANDS, commandContext, logger);
    discord.once(Events.ClientReady, (client) => {
      logger.info({ user: client.user.tag, guilds: client.guilds.cache.size }, 'Discord ready: feed starting');
      worker.start();
      releases.start();
    });
    try {
      await discord.login(config.DISCORD_TOKEN);
    } catch (error) {
      await stop();
      throw error;
    }
  }

  return { store, http, secrets, discord, feed, activity, apps: { records: appRecords, poller }, stop };
}
