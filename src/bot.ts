import { Events, type Client } from 'discord.js';

import { DEFAULT_PING_TIMEOUT_MS, type CommandContext } from '../commands/context.js';
import { COMMANDS } from '../commands/index.js';
import { forgetLeftGuild } from './admin/forget-left-guild.js';
import type { AppRecords } from './apps/app-records.js';
import { createCardPoster } from './apps/card-poster.js';
import { DeveloperCache } from './apps/developer-cache.js';
import { createAttachmentDownloader } from './apps/download-attachment.js';
import { DraftStore } from './apps/drafts.js';
import { ReleasePoller, type PollIntervals } from './apps/release-poller.js';
import { appRecordsOn } from './apps/store-app-records.js';
import { CardRecords } from './cards/card-records.js';
import { FeedCards } from './cards/feed-cards.js';
import { ModcallEscalator } from './cards/modcall-escalator.js';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { toAuditEntry } from './discord/audit-entry.js';
import { createChannelSender, createPostFinder } from './discord/channel-sender.js';
import { checkToken, connectDiscord, isTokenRefused, TOKEN_REFUSED } from './discord/connect-discord.js';
import { createDiscordClient, type DiscordClientOptions } from './discord/create-client.js';
import { DiscordHealth } from './discord/discord-health.js';
import { attachInteractionDispatcher } from './discord/interaction-dispatch.js';
import { onGuildRemoved } from './discord/on-guild-removed.js';
import type { BackoffPolicy } from './feed/backoff.js';
import { FeedWorker } from './feed/feed-worker.js';
import type { BatchWindow } from './feed/lane.js';
import { reportHealth } from './health-report.js';
import { AlertDesk } from './health/alert-desk.js';
import { alertSettingsOn } from './health/alert-settings.js';
import { dropOldHeld } from './health/drop-old-held.js';
import { HealthMonitor } from './health/health-monitor.js';
import { incidentsOn } from './health/incidents.js';
import { IntakeFailures } from './health/intake-failures.js';
import { listen, readTlsFiles, type RunningServer } from './http-server.js';
import { createApp } from './intake/create-app.js';
import type { Logger } from './logger.js';
import { sealStoredSecrets } from './seal-stored-secrets.js';
import { StartupError } from './startup-error.js';
import type { CoordinationOptions } from './store/coordination.js';
import { openStore, type Store } from './store/open-store.js';
import { createSecretBox, type SecretBox } from './store/secret-box.js';
import { StoreHealth } from './store/store-health.js';
import { RUNTIME_TIMERS, type Timers } from './timers.js';
import { createServiceClient } from './upstream/client.js';
import { createDeveloperClient } from './upstream/developer-client.js';

/** A running bot: what tests, the demo and main.ts hold on to. */
export interface RunningBot {
  store: Store;
  http: RunningServer;
  secrets: SecretBox;
  /** The discord.js client and the feed, absent in an intake-only process or one started with `feed: false`. */
  discord: Client | undefined;
  feed: FeedWorker | undefined;
  discordHealth: DiscordHealth;
  /** The developer API's records, and the release poller (absent where this process runs no feed). */
  apps: { records: AppRecords; poller: ReleasePoller | undefined };
  /** The feed's health monitor (absent where this process runs no feed). */
  health: HealthMonitor | undefined;
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
        /** How long a part-filled message waits for more of a burst (tests widen it to make a burst certain). */
        batchWindow?: BatchWindow;
        /** How long Discord is taken to recognise a nonce (tests shorten it with the fake's). */
        nonceWindowMs?: number;
        /** PostgreSQL only: how feed processes share the partitions (tests shorten the timings). */
        leases?: Pick<CoordinationOptions, 'rebalanceMs' | 'idleTimeoutMs'>;
      };
  /**
   * The base of the address the service is told to post to, given the intake's own URL; default PUBLIC_URL.
   * Tests return the intake's http://127.0.0.1 address, which PUBLIC_URL (https only) cannot be.
   */
  webhookBaseUrl?: (intakeUrl: string) => string;
  /** The release poller's timers; tests pass ones driven by their fake clock. */
  timers?: Timers;
  /** The release poller's intervals; the demo shortens them. */
  releasePolling?: Partial<PollIntervals>;
  /** The unit of /feed mention escalate-after (a minute), and how often it is checked; tests shorten them. */
  escalationTimings?: { minuteMs?: number; checkEveryMs?: number };
  /**
   * The health monitor's timings: how often it checks (default 30 s), the hour of /alerts set silence:<hours>,
   * how long it waits for a test ping (default 30 s). Tests shorten them.
   */
  healthTimings?: { checkEveryMs?: number; hourMs?: number; pingTimeoutMs?: number };
}

/** Delivery ids are remembered this long after their event was posted; the service may retry for 24 h. */
export const POSTED_ID_TTL_MS = 25 * 60 * 60 * 1000;
/** Admin actions are kept this long (docs/operations.md, "Audit"). */
const AUDIT_KEPT_MS = 90 * 24 * 60 * 60 * 1000;
/** A case, session or shift card is followed (edited by its later events) this long after it was posted. */
const CARDS_FOLLOWED_MS = 30 * 24 * 60 * 60 * 1000;
/** How often what is past its retention (posted ids, audit entries, cards, held deliveries) is swept out. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;
/** How long the health monitor waits for a test ping at the intake (the "no ping within 30 s"). */
const SILENCE_PING_TIMEOUT_MS = 30_000;
/** Discord's global limit for one bot: split between the feed processes that share it. */
const DISCORD_GLOBAL_REQUESTS_PER_SECOND = 50;

/**
 * The composition root shared by main.ts, the tests and the demo: store -> intake (HTTP) -> Discord -> feed.
 * ROLE picks the parts: `intake` (webhooks and /healthz), `feed` (Discord and /healthz), `all` (both; the
 * default). The intake answers the service from the first moment, whatever Discord does; the feed starts once
 * Discord answers. Stopping reverses it: stop accepting, finish requests and sends in flight, close the store.
 */
export async function startBot(options: StartOptions): Promise<RunningBot> {
  const { config, logger } = options;
  const clock = options.clock ?? Date.now;
  const runsIntake = config.ROLE !== 'feed';
  const runsFeed = config.ROLE !== 'intake' && options.feed !== false;
  const store = await openStore(config.STORE_URL, clock, logger);
  const secrets = createSecretBox(config.SECRET_KEY);
  const appRecords = appRecordsOn(store.records);
  try {
    const sealed = await sealStoredSecrets({ hooks: store.hooks, guilds: store.guilds, apps: appRecords, secrets });
    if (Object.values(sealed).some((count) => count > 0)) logger.info(sealed, 'sealed stored secrets with SECRET_KEY');
  } catch (error) {
    await store.close();
    throw error;
  }
  const feedOptions = options.feed === false ? {} : (options.feed ?? {});
  const discord = runsFeed
    ? createDiscordClient({ apiUrl: config.DISCORD_API_URL, ...(feedOptions.rest ? { rest: feedOptions.rest } : {}) })
    : undefined;
  const discordHealth = new DiscordHealth(discord, clock);
  const storeHealth = new StoreHealth(clock);
  const intakeFailures = new IntakeFailures();

  const app = createApp({
    webhooks: runsIntake,
    hooks: store.hooks,
    deliveries: store.deliveries,
    activity: store.activity,
    intakeFailures,
    secrets,
    clock,
    logger,
    health: () => reportHealth({ store, storeHealth, discordHealth, role: config.ROLE }),
  });
  let http: RunningServer;
  try {
    http = await listen(app, config.PORT, options.host, readTlsFiles(config.TLS_CERT, config.TLS_KEY));
  } catch (error) {
    await store.close();
    throw error;
  }
  logger.info(
    { port: http.port, https: http.url.startsWith('https:'), store: store.kind, role: config.ROLE },
    runsIntake ? 'intake listening' : 'health endpoint listening',
  );

  const sweep = setInterval(() => {
    store.deliveries
      .sweepPosted(clock() - POSTED_ID_TTL_MS)
      .catch((error: unknown) => logger.warn({ err: error }, 'sweeping posted deliveries failed'));
    store.audit
      .sweep(clock() - AUDIT_KEPT_MS)
      .catch((error: unknown) => logger.warn({ err: error }, 'sweeping the audit log failed'));
    new CardRecords(store.records)
      .sweep(clock() - CARDS_FOLLOWED_MS)
      .catch((error: unknown) => logger.warn({ err: error }, 'sweeping old cards failed'));
    dropOldHeld({ deliveries: store.deliveries, audit: store.audit, clock, logger }).catch((error: unknown) =>
      logger.warn({ err: error }, 'dropping old held deliveries failed'),
    );
  }, SWEEP_INTERVAL_MS);
  sweep.unref();

  let feed: FeedWorker | undefined;
  let poller: ReleasePoller | undefined;
  let health: HealthMonitor | undefined;
  let stopGateway: (() => Promise<void>) | undefined;
  const stop = async () => {
    clearInterval(sweep);
    await http.close();
    await poller?.stop();
    await health?.stop();
    await feed?.stop();
    await stopGateway?.();
    await discord?.destroy();
    await store.close();
    logger.info('stopped');
  };

  if (discord) {
    try {
      const started = await startFeed({
        ...options,
        store,
        secrets,
        discord,
        discordHealth,
        storeHealth,
        http,
        clock,
        feedOptions,
        appRecords,
        intakeFailures,
      });
      feed = started.feed;
      poller = started.poller;
      health = started.health;
      stopGateway = started.stopGateway;
    } catch (error) {
      await stop();
      throw error;
    }
  }
  return { store, http, secrets, discord, feed, discordHealth, apps: { records: appRecords, poller }, health, stop };
}

interface FeedParts extends StartOptions {
  store: Store;
  secrets: SecretBox;
  discord: Client;
  discordHealth: DiscordHealth;
  storeHealth: StoreHealth;
  http: RunningServer;
  clock: Clock;
  feedOptions: Exclude<StartOptions['feed'], false | undefined>;
  appRecords: AppRecords;
  intakeFailures: IntakeFailures;
}

/**
 * The feed and the slash commands. With SQLite this process owns every guild and the gateway. With PostgreSQL
 * it takes a share of the guilds' partitions and, when it wins the gateway lease, the one gateway connection
 * that receives slash commands (so each runs once); it posts through REST either way.
 */
async function startFeed(
  parts: FeedParts,
): Promise<{ feed: FeedWorker; poller: ReleasePoller; health: HealthMonitor; stopGateway: () => Promise<void> }> {
  const { config, logger, store, discord, discordHealth, clock, feedOptions } = parts;
  const developer = createDeveloperClient({ serviceUrl: config.SERVICE_URL, clock });
  const developerCache = new DeveloperCache(clock);
  // Cards and polling belong to the process that holds the gateway (one per deployment), like the commands.
  const poller = new ReleasePoller({
    records: parts.appRecords,
    developer,
    secrets: parts.secrets,
    poster: createCardPoster(discord, logger),
    cache: developerCache,
    clock,
    timers: parts.timers ?? RUNTIME_TIMERS,
    logger,
    ...(parts.releasePolling ? { intervals: parts.releasePolling } : {}),
    // Read when a poll ends, long after the monitor below exists.
    onPollHealth: (guildId, pollHealth) => health.notePoll(guildId, pollHealth),
  });
  const service = createServiceClient({ serviceUrl: config.SERVICE_URL });
  const cardRecords = new CardRecords(store.records);
  const escalator = new ModcallEscalator({
    records: cardRecords,
    poster: createCardPoster(discord, logger),
    clock,
    timers: parts.timers ?? RUNTIME_TIMERS,
    logger,
    ...parts.escalationTimings,
  });
  const alertSettings = alertSettingsOn(store.records);
  const incidents = incidentsOn(store.records);
  // Health alerts, like the cards, belong to the process that holds the gateway: each incident is tracked once.
  const health = new HealthMonitor({
    hooks: store.hooks,
    activity: store.activity,
    deliveries: store.deliveries,
    signals: store.signals,
    intakeFailures: parts.intakeFailures,
    incidents,
    settings: alertSettings,
    desk: new AlertDesk({
      incidents,
      settings: alertSettings,
      poster: createCardPoster(discord, logger),
      clock,
      logger,
    }),
    records: store.records,
    probe: {
      signals: store.signals,
      service,
      activity: store.activity,
      guilds: store.guilds,
      secrets: parts.secrets,
      logger,
      clock,
      publicUrl: config.PUBLIC_URL,
      pingTimeoutMs: parts.healthTimings?.pingTimeoutMs ?? SILENCE_PING_TIMEOUT_MS,
    },
    clock,
    timers: parts.timers ?? RUNTIME_TIMERS,
    logger,
    ...(parts.healthTimings?.checkEveryMs ? { checkEveryMs: parts.healthTimings.checkEveryMs } : {}),
    ...(parts.healthTimings?.hourMs ? { hourMs: parts.healthTimings.hourMs } : {}),
  });
  const startHealth = () =>
    health.start().catch((error: unknown) => logger.error({ err: error }, 'the health monitor could not start'));
  // The token was checked at start: a refusal later is reported (/status, /healthz) and retried, not fatal.
  const connect = () =>
    connectDiscord(discord, config.DISCORD_TOKEN, {
      logger,
      refusalIsFatal: false,
      ...(feedOptions.loginBackoff ? { backoff: feedOptions.loginBackoff } : {}),
    });

  let connection: { stop(): void } | undefined;
  // Whether this process holds the gateway is the store's coordination to say: at once where one process runs
  // (SQLite), by a lease where several share the store (PostgreSQL). Posting needs only REST either way.
  await refuseARefusedToken(discord, config.DISCORD_TOKEN, logger);
  discordHealth.gatewayHere = false;
  const ownership = store.coordinate({
    logger,
    ...feedOptions.leases,
    wantsGateway: true,
    onGateway: (held) => {
      discordHealth.gatewayHere = held;
      if (held) {
        logger.info('this process holds the gateway: slash commands are answered here');
        void connect().then((handle) => (connection = handle));
        poller.start();
        escalator.start();
        void startHealth();
      } else {
        logger.info('this process no longer holds the gateway: disconnecting from it');
        connection?.stop();
        void poller.stop();
        void escalator.stop();
        void health.stop();
        void discord.destroy().then(() => discord.rest.setToken(config.DISCORD_TOKEN));
      }
    },
    onMembers: (members) => {
      // Read by @discordjs/rest at each window: the feed processes share the bot's 50 requests a second.
      discord.rest.options.globalRequestsPerSecond = Math.max(
        1,
        Math.floor(DISCORD_GLOBAL_REQUESTS_PER_SECOND / members),
      );
    },
  });

  const worker = new FeedWorker({
    cards: new FeedCards({ records: cardRecords, poster: createCardPoster(discord, logger), clock, logger }),
    queue: store.deliveries,
    guilds: store.guilds,
    signals: store.signals,
    send: createChannelSender(discord, config.DISCORD_TOKEN),
    findPosted: createPostFinder(discord),
    logger,
    clock,
    ownership,
    onSendOutcome: (failure) => discordHealth.noteSend(failure),
    onStoreOutcome: (error) => parts.storeHealth.note(error),
    ...(feedOptions.backoff ? { backoff: feedOptions.backoff } : {}),
    ...(feedOptions.batchWindow ? { batchWindow: feedOptions.batchWindow } : {}),
    ...(feedOptions.nonceWindowMs === undefined ? {} : { nonceWindowMs: feedOptions.nonceWindowMs }),
  });
  const commandContext: CommandContext = {
    hooks: store.hooks,
    guilds: store.guilds,
    deliveries: store.deliveries,
    activity: store.activity,
    signals: store.signals,
    secrets: parts.secrets,
    service,
    publicUrl: config.PUBLIC_URL,
    webhookBaseUrl: parts.webhookBaseUrl?.(parts.http.url) ?? config.PUBLIC_URL,
    discordHealth,
    logger,
    clock,
    client: discord,
    pingTimeoutMs: DEFAULT_PING_TIMEOUT_MS,
    appRecords: parts.appRecords,
    developer,
    developerCache,
    releases: poller,
    appDrafts: new DraftStore(clock),
    downloadAttachment: createAttachmentDownloader(),
    health: { settings: alertSettings, records: store.records, monitor: health },
    cards: cardRecords,
    audit: store.audit,
  };
  // Registering the commands with Discord is `npm run deploy-commands`, run once by the host, never here.
  attachInteractionDispatcher(discord, COMMANDS, commandContext, logger, {
    onAction: (action) => store.audit.append(toAuditEntry(action, clock())),
  });
  // Heard where the gateway is, like the commands: once per removal, whichever process holds it.
  onGuildRemoved(
    discord,
    (guildId) =>
      forgetLeftGuild(guildId, { store, audit: store.audit, botUserId: discord.user?.id ?? '', clock, logger }),
    logger,
  );

  discord.on(Events.ClientReady, (client) =>
    logger.info({ user: client.user.tag, guilds: client.guilds.cache.size }, 'Discord gateway ready'),
  );
  await worker.start();
  return {
    feed: worker,
    poller,
    health,
    stopGateway: async () => {
      connection?.stop();
      await escalator.stop();
    },
  };
}

/** A token Discord refuses is the host's to fix: one line, exit 1. Discord being down is not (it is retried). */
async function refuseARefusedToken(discord: Client, token: string, logger: Logger): Promise<void> {
  try {
    await checkToken(discord, token);
  } catch (error) {
    if (isTokenRefused(error)) throw new StartupError(TOKEN_REFUSED);
    logger.warn(
      { err: { message: error instanceof Error ? error.message : String(error) } },
      'Discord did not answer at start; posting is retried',
    );
    discord.rest.setToken(token);
  }
}
