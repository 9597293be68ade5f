import type { Client } from 'discord.js';

import type { Clock } from '../base/clock.js';
import type { Config } from '../base/config.js';
import type { Logger } from '../base/logger.js';
import type { BridgeMetrics } from '../base/metrics.js';
import type { Timers } from '../base/timers.js';
import type { CommandBasics, Interactions } from '../discord/command.js';
import type { DiscordHealth } from '../discord/discord-health.js';
import type { DispatchedAction } from '../discord/interaction-dispatch.js';
import type { PostFinder } from '../discord/posting/find-post.js';
import type { Poster } from '../discord/posting/poster.js';
import type { CardPlanner } from '../feed/card-plan.js';
import type { SendPacer } from '../feed/send-pacer.js';
import type { IntakeFailures } from '../intake/intake-failures.js';
import type { SecretBox } from '../store/secret-box.js';
import type { StoreModule } from '../store/store-module.js';
import type { Store } from '../store/store.js';
import type { ServiceClient } from '../upstream/client.js';

/** What every feature may use: the bottom layers, made once by the composition root. */
export interface BotParts {
  config: Config;
  store: Store;
  secrets: SecretBox;
  /** The discord.js client: its REST layer posts; the gateway is connected only where this process holds it. */
  discord: Client;
  discordHealth: DiscordHealth;
  /** The one poster: the feed's messages, cards, alerts and release cards, each under a nonce. */
  poster: Poster;
  /** Finds the bot's earlier post of a message sent again past Discord's nonce window (post-once.ts). */
  findPosted: PostFinder;
  /** How long Discord is taken to recognise a nonce (tests shorten it with the fake's); 4 minutes by default. */
  nonceWindowMs?: number | undefined;
  /** The Server API v2 client. */
  service: ServiceClient;
  intakeFailures: IntakeFailures;
  /** The base of the address the service posts to: `${webhookBaseUrl}/webhooks/<hookId>`. */
  webhookBaseUrl: string;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  /**
   * This process's share of Discord's rate, which the feed's lanes take turns in: a feature that posts in bulk
   * (a replay) takes only what the lanes leave (`takeSpare`). Absent outside the feed (a tool, a test).
   */
  pacer?: SendPacer | undefined;
  /** Where a job counts a guild's backoff (GET /metrics). */
  metrics: Pick<BridgeMetrics, 'guildBackoff'>;
}

/**
 * Work a feature does on its own time (polling, escalating, checking health). It runs in the one process that
 * holds the gateway, like the slash commands, so each thing it posts is posted once per deployment. Started and
 * stopped as the gateway comes and goes (src/gateway-role.ts), one call at a time: start() is never called
 * before the stop() before it has finished, nor stop() before start() has, however often the gateway flaps.
 */
export interface Job {
  start(): void | Promise<void>;
  stop(): Promise<void>;
}

/**
 * What a feature gives the bot: the dependencies its slash commands use, its jobs, what it keeps past a
 * retention, and what it hears of the rest. The bot is composed from a list of these (src/features/index.ts).
 */
export interface Feature<Deps extends object = object> {
  /**
   * What its slash commands, buttons and dialogs are given, beside the basics: the features' list binds its
   * `commands/` (src/features/<name>/commands/index.ts) to it.
   */
  deps: Deps;
  jobs?: readonly Job[];
  /** Drops what is past its retention; run every hour with the time. */
  sweep?(now: number): Promise<unknown>;
  /** The living cards: what the feed asks before and after it posts an entry. */
  feedCards?: CardPlanner;
  /** Told of every admin action a command, dialog or button carried out (the audit trail). */
  onAction?(action: DispatchedAction): Promise<void>;
  /** Told when the bot was removed from a server. */
  onGuildRemoved?(guildId: string): Promise<unknown>;
  /**
   * The guilds it keeps something for: at the gateway's ready, those the bot is no longer in (removed while it
   * was down, when no GUILD_DELETE could reach it) are forgotten as a removal is (src/guilds-left-while-down.ts).
   */
  keptGuilds?(): Promise<string[]>;
}

/**
 * A feature as the features' list (src/features/index.ts) takes it, from the feature's `definition.ts`: what it
 * answers in Discord, its tables, and how it is made. The first two are known without a store or a connection
 * (deploy-commands registers `interactions`; the store is opened with every `storeModule`); `create` runs once
 * the bot's parts exist, handed what the feature needs of the others (`Needs`: listeners, another feature's
 * deps, the timings tests shorten), when it needs anything.
 */
export interface FeatureDefinition<Made extends Feature, Needs = undefined> {
  /** Its slash commands, buttons and dialogs (its `commands/index.ts`), bound to `Made`'s deps. */
  readonly interactions: Interactions<CommandBasics & Made['deps']>;
  /** Its tables, when it has any (its `store/<name>-module.ts`). */
  readonly storeModule?: StoreModule;
  /** Makes the feature. */
  readonly create: (parts: BotParts, needs: Needs) => Made;
}
