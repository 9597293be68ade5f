/**
 * Starts a fake Discord (REST + gateway) on 127.0.0.1 that the real discord.js 14 client logs in to and uses.
 * It validates every body against Discord's published schema, applies Discord's rate limits and permission
 * rules, records everything, and lets tests inject faults and send interactions.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { makeUser } from './api-objects.js';
import { AttachmentStore } from './attachment-store.js';
import { CommandStore } from './command-store.js';
import { FakeDiscord } from './fake-discord.js';
import { FaultInjector } from './faults.js';
import { GatewayServer } from './gateway.js';
import { GuildStore, type GuildSpec, type TestUsers } from './guild-store.js';
import { InteractionStore } from './interaction-store.js';
import { MessageStore } from './message-store.js';
import type { RateLimit } from './rate-limiter.js';
import { RestHandler } from './rest-handler.js';
import { createRestRoutes } from './rest-routes.js';
import { createSnowflakeGenerator } from './snowflake.js';
import { ChangeNotifier } from './waiter.js';

/** Options of {@link startFakeDiscord}; all optional. */
export interface FakeDiscordOptions {
  /** HELLO's heartbeat interval; default 41 250 ms like Discord. Small values make heartbeats visible in tests. */
  readonly heartbeatIntervalMs?: number;
  /** Per-channel limit on message creates; default 5 per 5 000 ms like Discord. */
  readonly messageRateLimit?: RateLimit;
  /** Whether answers carry `X-RateLimit-*` headers (default true); without, discord.js only learns from 429s. */
  readonly advertiseRateLimits?: boolean;
  /** How long an `enforce_nonce` create finds an earlier message with the same nonce; default 5 minutes. */
  readonly nonceWindowMs?: number;
  /**
   * The clock of ids (snowflakes: a message's creation time) and of the nonce window, for a bot on a test's clock
   * (its `now`); default the real one. Rate limits, faults and interaction deadlines keep the real clock.
   */
  readonly clock?: () => number;
  /**
   * How long after dispatch an interaction accepts its callback; default 3 000 ms like Discord. Later
   * callbacks get 404 Unknown interaction. Pass `Infinity` to switch the rule off.
   */
  readonly interactionCallbackDeadlineMs?: number;
  /** The bot's username; default `Fake Bot`. */
  readonly botUsername?: string;
  /** Application flags sent in READY; default 0. */
  readonly applicationFlags?: number;
  /** Guilds to create before anyone connects. */
  readonly guilds?: readonly GuildSpec[];
  /**
   * The shard count `GET /gateway/bot` recommends; default 1. discord.js with `shards: 'auto'` opens that many
   * sessions, and each hears only of its own guilds (`(guild_id >> 22) % count`).
   */
  readonly shards?: number;
  /**
   * `session_start_limit.max_concurrency` of `GET /gateway/bot`: how many shards may identify per 5 seconds
   * (discord.js waits 5 s between identifies of one bucket, `shard_id % max_concurrency`); default 1.
   */
  readonly maxConcurrency?: number;
  /** The most guilds one shard may hold before IDENTIFY is refused with 4011 (Sharding required); default 2 500. */
  readonly maxGuildsPerShard?: number;
}

/**
 * Starts a fake Discord on 127.0.0.1 on a free port. Point discord.js at it with
 * `new Client({ intents, rest: { api: fake.apiUrl } })` and `client.login(fake.botToken)`.
 */
export async function startFakeDiscord(options: FakeDiscordOptions = {}): Promise<FakeDiscord> {
  const shards = options.shards ?? 1;
  const maxConcurrency = options.maxConcurrency ?? 1;
  if (!Number.isInteger(shards) || shards < 1) throw new RangeError(`shards must be a whole number ≥ 1, not ${shards}`);
  if (!Number.isInteger(maxConcurrency) || maxConcurrency < 1) {
    throw new RangeError(`maxConcurrency must be a whole number ≥ 1, not ${maxConcurrency}`);
  }
  const nextId = createSnowflakeGenerator(options.clock);
  const bot = makeUser(nextId(), options.botUsername ?? 'Fake Bot', true);
  const users: TestUsers = {
    owner: makeUser(nextId(), 'guild-owner'),
    admin: makeUser(nextId(), 'server-admin'),
    member: makeUser(nextId(), 'staff-member'),
  };
  const notifier = new ChangeNotifier();
  const onChange = (): void => notifier.notify();
  const applicationFlags = options.applicationFlags ?? 0;

  const guilds = new GuildStore(nextId, bot, users);
  for (const spec of options.guilds ?? []) guilds.addGuild(spec);
  const messages = new MessageStore(nextId, options.nonceWindowMs ?? 5 * 60_000, options.clock);
  const interactions = new InteractionStore(messages, bot, bot.id, options.interactionCallbackDeadlineMs ?? 3_000);
  const commands = new CommandStore(nextId, bot.id);
  const faults = new FaultInjector();
  let restBaseUrl = '';
  const attachments = new AttachmentStore(nextId, () => restBaseUrl);

  let gatewayUrl = '';
  const gateway = new GatewayServer({
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    bot,
    applicationId: bot.id,
    applicationFlags,
    guilds,
    maxGuildsPerShard: options.maxGuildsPerShard ?? 2_500,
    url: () => gatewayUrl,
    onChange,
  });
  const rest = new RestHandler({
    routes: createRestRoutes({
      guilds,
      messages,
      interactions,
      commands,
      attachments,
      gateway,
      bot,
      applicationId: bot.id,
      applicationFlags,
      gatewayUrl: () => gatewayUrl,
      shards,
      maxConcurrency,
      onChange,
    }),
    faults,
    messageRateLimit: options.messageRateLimit ?? { limit: 5, windowMs: 5_000 },
    advertiseRateLimits: options.advertiseRateLimits ?? true,
    onChange,
  });

  const server = createServer(rest.listener);
  server.on('upgrade', (request, socket, head) => gateway.handleUpgrade(request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  gatewayUrl = `ws://127.0.0.1:${port}`;
  restBaseUrl = `http://127.0.0.1:${port}`;

  return new FakeDiscord({
    server,
    port,
    guilds,
    messages,
    interactions,
    commands,
    attachments,
    gateway,
    rest,
    faults,
    notifier,
    nextId,
    bot,
    users,
    shards,
  });
}
