import type { Client } from 'discord.js';

import type { Clock } from './base/clock.js';
import type { Config } from './base/config.js';
import type { Logger } from './base/logger.js';
import { BridgeMetrics } from './base/metrics.js';
import { RUNTIME_TIMERS, type Timers } from './base/timers.js';
import { createDiscordClient } from './discord/create-client.js';
import { DiscordHealth } from './discord/discord-health.js';
import { createPostFinder } from './discord/posting/find-post.js';
import { createPoster } from './discord/posting/poster.js';
import type { CoverageGuard } from './features/duty/coverage-guard.js';
import type { HealthMonitor } from './features/health/health-monitor.js';
import { STORE_MODULES, type FeatureTimings } from './features/index.js';
import { recordOf } from './features/record/index.js';
import { appDocumentsOn } from './features/releases/app-documents-on.js';
import type { AppDocuments } from './features/releases/app-documents.js';
import type { ReleasePoller } from './features/releases/release-poller.js';
import type { FeedWorker } from './feed/feed-worker.js';
import { reportHealth } from './health-report.js';
import { listen, readTlsFiles, type RunningServer } from './http-server.js';
import { createApp } from './intake/create-app.js';
import { DELIVERY_OUTCOMES, type DeliveryOutcome } from './intake/error-response.js';
import { IntakeFailures } from './intake/intake-failures.js';
import { startRetention } from './retention.js';
import { sealStoredSecrets } from './seal-stored-secrets.js';
import { countSends, POSTED_EVENT_LABELS, readyByShard, serveMetrics } from './serve-metrics.js';
import { startFeed, type FeedOptions, type RunningFeed } from './start-feed.js';
import { openStore, type Store } from './store/open-store.js';
import { createSecretBox, type SecretBox } from './store/secret-box.js';
import { StoreHealth } from './store/store-health.js';
import { createServiceClient } from './upstream/client.js';

/** A running bot: what tests, the demo and main.ts hold on to. */
export interface RunningBot {
  store: Store;
  http: RunningServer;
  /** GET /metrics's own listener, when METRICS_PORT is set. */
  metricsHttp: RunningServer | undefined;
  /** This bot's metrics (its own registry; counted whether or not they are served). */
  metrics: BridgeMetrics;
  secrets: SecretBox;
  /** The discord.js client and the feed, absent in an intake-only process or one started with `feed: false`. */
  discord: Client | undefined;
  feed: FeedWorker | undefined;
  discordHealth: DiscordHealth;
  /** The developer API's documents, and the release poller (absent where this process runs no feed). */
  apps: { documents: AppDocuments; poller: ReleasePoller | undefined };
  /** The feed's health monitor (absent where this process runs no feed). */
  health: HealthMonitor | undefined;
  /** The duty feature's coverage guard (absent where this process runs no feed). */
  coverage: CoverageGuard | undefined;
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
  feed?: false | FeedOptions;
  /**
   * The base of the address the service is told to post to, given the intake's own URL; default PUBLIC_URL.
   * Tests return the intake's http://127.0.0.1 address, which PUBLIC_URL (https only) cannot be.
   */
  webhookBaseUrl?: (intakeUrl: string) => string;
  /** The features' timers; tests pass ones driven by their fake clock. */
  timers?: Timers;
  /** The features' timings (release polling, escalation, health checks): the demo and tests shorten them. */
  timings?: FeatureTimings;
}

/**
 * The composition root shared by main.ts, the tests and the demo: store -> intake (HTTP) -> Discord -> feed and
 * features. ROLE picks the parts: `intake` (webhooks and /healthz), `feed` (Discord and /healthz), `all` (both;
 * the default). The intake answers the service from the first moment, whatever Discord does. Stopping reverses
 * it: stop accepting, finish requests and sends in flight, close the store.
 */
export async function startBot(options: StartOptions): Promise<RunningBot> {
  const { config, logger } = options;
  const clock = options.clock ?? Date.now;
  const store = await openStore(config.STORE_URL, STORE_MODULES, clock, logger);
  const secrets = createSecretBox(config.SECRET_KEY);
  const appDocuments = appDocumentsOn(store.documents, logger);
  try {
    const sealed = await sealStoredSecrets({ hooks: store.hooks, guilds: store.guilds, apps: appDocuments, secrets });
    if (Object.values(sealed).some((count) => count > 0)) logger.info(sealed, 'sealed stored secrets with SECRET_KEY');
  } catch (error) {
    await store.close();
    throw error;
  }
  const runsFeed = config.ROLE !== 'intake' && options.feed !== false;
  const feedOptions = options.feed === false ? {} : (options.feed ?? {});
  const rest = feedOptions.rest ? { rest: feedOptions.rest } : {};
  const discord = runsFeed ? createDiscordClient({ apiUrl: config.DISCORD_API_URL, ...rest }) : undefined;
  const discordHealth = new DiscordHealth(discord, clock);
  const storeHealth = new StoreHealth(clock);
  const intakeFailures = new IntakeFailures();
  const metrics = new BridgeMetrics();
  metrics.watchEntries(() => store.deliveries.countByState());
  metrics.watchSetAside(() => store.setAside.countByJob());
  metrics.watchOldestWaiting(() => store.deliveries.oldestWaitingAt(), clock);
  const record = recordOf(store);
  metrics.watchRecordLag(() => record.oldestUnrecordedAt(), clock);
  metrics.watchGatewayShards(() => readyByShard(discordHealth.shards));
  if (config.ROLE !== 'feed') metrics.knowDeliveryOutcomes(DELIVERY_OUTCOMES);
  if (runsFeed) metrics.knowPostedEvents(POSTED_EVENT_LABELS);
  const app = createApp({
    webhooks: config.ROLE !== 'feed',
    hooks: store.hooks,
    deliveries: store.deliveries,
    activity: store.activity,
    intakeFailures,
    secrets,
    clock,
    logger,
    health: () => reportHealth({ store, record, storeHealth, discordHealth, role: config.ROLE, now: clock }),
    // Timed and counted only where the metrics are served: otherwise nobody reads them, and the intake's path
    // stays as short as it can be.
    ...(config.METRICS_PORT === undefined
      ? {}
      : { onDelivery: (outcome: DeliveryOutcome, seconds: number) => metrics.delivery(outcome, seconds) }),
  });
  const http = await listen(app, config.PORT, options.host, readTlsFiles(config.TLS_CERT, config.TLS_KEY)).catch(
    async (error: unknown) => {
      await store.close();
      throw error;
    },
  );
  logger.info(
    { port: http.port, https: http.url.startsWith('https:'), store: store.kind, role: config.ROLE },
    config.ROLE !== 'feed' ? 'intake listening' : 'health endpoint listening',
  );

  let feed: RunningFeed | undefined;
  let retention: { stop(): void } | undefined;
  let metricsHttp: RunningServer | undefined;
  const stop = async () => {
    retention?.stop();
    await Promise.all([http.close(), metricsHttp?.close()]);
    await feed?.stop();
    await discord?.destroy();
    await store.close();
    logger.info('stopped');
  };
  try {
    // Served from the start, before Discord answers: the leases and the poller's budget join once the feed runs.
    metricsHttp = await serveMetrics(metrics, config, { discord, logger });
    if (metricsHttp) logger.info({ url: `${metricsHttp.url}/metrics` }, 'metrics listening');
    if (discord) {
      const parts = {
        config,
        store,
        secrets,
        discord,
        discordHealth,
        storeHealth,
        intakeFailures,
        clock,
        logger,
        poster: countSends(createPoster(discord, { token: config.DISCORD_TOKEN, logger }), metrics),
        findPosted: createPostFinder(discord, config.DISCORD_TOKEN),
        nonceWindowMs: feedOptions.nonceWindowMs,
        metrics,
        service: createServiceClient({ serviceUrl: config.SERVICE_URL }),
        webhookBaseUrl: options.webhookBaseUrl?.(http.url) ?? config.PUBLIC_URL,
        timers: options.timers ?? RUNTIME_TIMERS,
      };
      feed = await startFeed(parts, feedOptions, options.timings ?? {});
    }
    retention = startRetention({
      store,
      features: feed?.features,
      clock,
      logger,
      replayWindowMs: config.REPLAY_WINDOW_HOURS * 60 * 60 * 1000,
    });
    const running = feed;
    metrics.watchLeases(() => ({
      gateway: running !== undefined && discordHealth.gatewayHere,
      feedPartitions: running?.worker.ownedPartitions ?? 0,
      gatewayShards: Object.keys(discordHealth.shards ?? {}).length,
    }));
    if (running) metrics.watchPollerBudget(() => running.features.releases.deps.developer.pollBudgetLeft());
  } catch (error) {
    await stop();
    throw error;
  }
  const { worker, features } = feed ?? {};
  const apps = { documents: appDocuments, poller: features?.releases.poller };
  return {
    store,
    http,
    metricsHttp,
    metrics,
    secrets,
    discord,
    feed: worker,
    discordHealth,
    apps,
    health: features?.health.monitor,
    coverage: features?.duty.coverage,
    stop,
  };
}
