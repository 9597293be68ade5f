import { Events, type Client } from 'discord.js';

import type { BackoffPolicy } from './base/backoff.js';
import type { BridgeMetrics } from './base/metrics.js';
import { StartupError } from './base/startup-error.js';
import { RUNTIME_TIMERS } from './base/timers.js';
import { bindAllInteractions } from './commands/index.js';
import { LEGACY_CUSTOM_IDS } from './commands/legacy-custom-ids.js';
import { learnBotUser } from './discord/bot-user.js';
import { checkToken, isTokenRefused, logGatewayShards, TOKEN_REFUSED } from './discord/connect-discord.js';
import type { DiscordClientOptions } from './discord/create-client.js';
import { setGlobalRateShare } from './discord/global-rate-share.js';
import { attachInteractionDispatcher } from './discord/interaction-dispatch.js';
import { toLoggableError } from './discord/log-error.js';
import { onGuildRemoved } from './discord/on-guild-removed.js';
import { ShardGateways } from './discord/shard-gateways.js';
import type { BotParts, Feature } from './features/feature.js';
import { createFeatures, featureList, type Features, type FeatureTimings } from './features/index.js';
import type { BatchWindow } from './feed/batch-window.js';
import { FeedWorker } from './feed/feed-worker.js';
import { SendPacer } from './feed/send-pacer.js';
import { GatewayRole } from './gateway-role.js';
import { forgetGuildsLeftWhileDown } from './guilds-left-while-down.js';
import { postedDeliveriesOf } from './serve-metrics.js';
import type { CoordinationOptions, FeedOwnership } from './store/coordination.js';
import type { StoreHealth } from './store/store-health.js';

/** Discord's global limit for one bot: split between the feed processes that share it. */
const DISCORD_GLOBAL_REQUESTS_PER_SECOND = 50;

/** How the feed posts; tests narrow the timings to make an outcome certain. */
export interface FeedOptions {
  rest?: DiscordClientOptions['rest'];
  backoff?: BackoffPolicy;
  /** Between failed logins (default: 2 s doubling to 2 min). */
  loginBackoff?: BackoffPolicy;
  /** How long a part-filled message waits for more of a burst (tests widen it to make a burst certain). */
  batchWindow?: BatchWindow;
  /** How long Discord is taken to recognise a nonce (tests shorten it with the fake's). */
  nonceWindowMs?: number;
  /** How feed processes share the work, where several share the store (tests shorten the timings). */
  leases?: Pick<CoordinationOptions, 'rebalanceMs' | 'idleTimeoutMs'>;
}

export interface RunningFeed {
  worker: FeedWorker;
  features: Features;
  stop(): Promise<void>;
}

/**
 * The feed and the features. The store's coordination says which guilds' feeds this process posts and whether
 * it holds the gateway: the one Discord connection that receives slash commands (so each runs once), where the
 * features' jobs run too. Posting needs only REST, so it starts at once, gateway or not.
 */
export async function startFeed(
  parts: BotParts & { storeHealth: StoreHealth; metrics: BridgeMetrics },
  options: FeedOptions,
  timings: FeatureTimings,
): Promise<RunningFeed> {
  const { config, store, discord, discordHealth, logger } = parts;
  // On the runtime's clock, as discord.js counts its limit (a test's manual clock would never open the next second).
  // Made before the features: a replay takes the sends the lanes leave of it.
  const pacer = new SendPacer(DISCORD_GLOBAL_REQUESTS_PER_SECOND, Date.now, RUNTIME_TIMERS);
  const features = createFeatures({ ...parts, pacer }, timings);
  const list = featureList(features);
  await refuseARefusedToken(parts);

  /** The slash commands, buttons and dialogs, answered with this client (a shard's: while it is held here). */
  const answerInteractions = (client: Client, answersHere?: () => boolean) =>
    attachInteractionDispatcher(client, bindAllInteractions(features, { client, clock: parts.clock, logger }), logger, {
      legacyCustomIds: LEGACY_CUSTOM_IDS,
      onAction: async (action) => {
        for (const feature of list) await feature.onAction?.(action);
      },
      ...(answersHere ? { answersHere } : {}),
    });
  const removed = async (guildId: string) => {
    for (const feature of list) await feature.onGuildRemoved?.(guildId);
  };
  // Removals made while no process held the gateway were never told: found at each ready.
  const forgetLeft = (client: Client<true>, speaksFor?: (guildId: string) => boolean) =>
    forgetGuildsLeftWhileDown({
      client,
      features: list,
      documents: store.documents,
      removed,
      logger,
      ...(speaksFor ? { speaksFor } : {}),
    }).catch((error: unknown) =>
      logger.error({ err: toLoggableError(error) }, 'looking for servers left while the bot was down failed'),
    );

  // PostgreSQL spreads the gateway's shards over the feed processes, each opening its own (shard-gateways.ts);
  // the gateway lease then runs the jobs only. SQLite's one process opens every shard where the jobs run.
  const spread = store.kind === 'postgres';
  // Asked by the shards' clients once the coordination below exists (it is told of them as it is made).
  const leases: { ownership?: FeedOwnership } = {};
  const shards = spread
    ? new ShardGateways({
        discord,
        token: config.DISCORD_TOKEN,
        client: { apiUrl: config.DISCORD_API_URL, ...(options.rest ? { rest: options.rest } : {}) },
        logger,
        attach: (client, holdsShard) => answerInteractions(client, holdsShard),
        holds: (shard) => leases.ownership?.holdsShard?.(shard) === true,
        identifyTurn: (bucket, spacingMs) => leases.ownership?.identifyTurn?.(bucket, spacingMs) ?? Promise.resolve(0),
        onReady: (client, speaksFor) => void forgetLeft(client, speaksFor),
        loginBackoff: options.loginBackoff,
      })
    : undefined;
  if (shards) discordHealth.useShardGateways(shards);
  // The process's client sees no READY then: the jobs and the feed still look for the bot itself through it.
  const botUser = shards ? learnBotUser(discord, logger) : undefined;
  const gateway = new GatewayRole({
    discord,
    token: config.DISCORD_TOKEN,
    discordHealth,
    jobs: jobsOf(list),
    logger,
    loginBackoff: options.loginBackoff,
    jobsOnly: spread,
  });
  discordHealth.gatewayHere = false;
  const ownership = store.coordinate({
    logger,
    ...options.leases,
    wantsGateway: true,
    onGateway: (held) => gateway.held(held),
    ...(shards ? { shards } : {}),
    onShare: (share) => {
      // The feed processes share the bot's 50 requests a second, each as much of it as of the partitions (a
      // process that took a dead one's partitions posts them at its rate within a part of its second (60 ms at 50 a second): send-pacer.ts).
      const perSecond = Math.max(1, Math.floor(DISCORD_GLOBAL_REQUESTS_PER_SECOND * share));
      setGlobalRateShare(discord.rest, perSecond);
      pacer.setRate(perSecond);
    },
  });
  leases.ownership = ownership;

  const worker = new FeedWorker({
    queue: store.deliveries,
    guilds: store.guilds,
    signals: store.signals,
    send: (channelId, body) => parts.poster.post(channelId, body, body.nonce),
    findPosted: parts.findPosted,
    logger,
    clock: parts.clock,
    ownership,
    onSendOutcome: (failure) => discordHealth.noteSend(failure),
    onStoreOutcome: (error) => parts.storeHealth.note(error),
    onBackoff: () => parts.metrics.laneBackoff(),
    onPosted: (entries, postedAt) => parts.metrics.deliveriesPosted(postedDeliveriesOf(entries, postedAt)),
    pacer,
    ...feedCardsOf(list),
    ...(options.backoff ? { backoff: options.backoff } : {}),
    ...(options.batchWindow ? { batchWindow: options.batchWindow } : {}),
    ...(options.nonceWindowMs === undefined ? {} : { nonceWindowMs: options.nonceWindowMs }),
  });
  // Registering the commands with Discord is `npm run deploy-commands`, run once by the host, never here.
  if (!shards) answerInteractions(discord);
  // Heard where the guild's shard is, like the commands: once per removal, whichever process holds it.
  onGuildRemoved(discord, removed, logger);
  discord.on(Events.ClientReady, (client) => {
    logger.info(
      { user: client.user.tag, guilds: client.guilds.cache.size, shards: client.ws.shards.size },
      'Discord gateway ready',
    );
    void forgetLeft(client);
  });
  logGatewayShards(discord, logger);
  await worker.start();
  return {
    worker,
    features,
    // The jobs first: nothing new is polled or checked while the lanes finish what they send.
    stop: async () => {
      await gateway.stop();
      await worker.stop();
      await shards?.stop();
      botUser?.stop();
    },
  };
}

function jobsOf(features: readonly Feature[]) {
  return features.flatMap((feature) => feature.jobs ?? []);
}

/** The one feature that keeps living cards, if any: the feed asks it before and after each post. */
function feedCardsOf(features: readonly Feature[]) {
  const cards = features.find((feature) => feature.feedCards)?.feedCards;
  return cards ? { cards } : {};
}

/** A token Discord refuses is the host's to fix: one line, exit 1. Discord being down is not (it is retried). */
async function refuseARefusedToken({ discord, config, logger }: BotParts): Promise<void> {
  try {
    await checkToken(discord, config.DISCORD_TOKEN);
  } catch (error) {
    if (isTokenRefused(error)) throw new StartupError(TOKEN_REFUSED);
    logger.warn(
      { err: { message: error instanceof Error ? error.message : String(error) } },
      'Discord did not answer at start; posting is retried',
    );
    discord.rest.setToken(config.DISCORD_TOKEN);
  }
}
