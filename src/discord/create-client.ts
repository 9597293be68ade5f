import { Client, GatewayIntentBits, type ClientOptions, type RESTOptions } from 'discord.js';

import { makeDiscordCache } from './discord-cache.js';

export interface DiscordClientOptions {
  /** REST base override (DISCORD_API_URL), e.g. http://127.0.0.1:9999/api; the gateway URL then comes from it. */
  apiUrl?: string | undefined;
  /** Per-request timeout and retries of discord.js's own REST layer; the feed adds its own backoff on top. */
  rest?: Partial<Pick<RESTOptions, 'timeout' | 'retries'>>;
  /**
   * One shard of a fixed count (a feed process's shard, where the store spreads them: shard-gateways.ts), with
   * the deployment's identify turns. Absent: every shard Discord recommends.
   */
  shard?: { id: number; count: number; identifyThrottler: NonNullable<ClientOptions['ws']>['buildIdentifyThrottler'] };
}

/**
 * A discord.js client with only the Guilds intent: the bot reads no messages and no members, it needs guilds and
 * roles (for permission checks) and interactions, which arrive without any intent; it keeps only those
 * (discord-cache.ts).
 *
 * Sharded automatically, unless given its shard: at each login discord.js asks `GET /gateway/bot` for Discord's
 * recommended shard count and opens one gateway connection per shard, all in this process (each identifying as
 * `[id, count]`, paced by `max_concurrency`). Discord recommends about one shard per 1 000 guilds and refuses a
 * shard of over 2 500; the count is read once per process (docs/hosting.md, "Many guilds").
 */
export function createDiscordClient(options: DiscordClientOptions = {}): Client {
  const rest: Partial<RESTOptions> = { ...options.rest };
  if (options.apiUrl) rest.api = options.apiUrl;
  const { shard } = options;
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    ...(shard
      ? {
          shards: [shard.id],
          shardCount: shard.count,
          ...(shard.identifyThrottler ? { ws: { buildIdentifyThrottler: shard.identifyThrottler } } : {}),
        }
      : { shards: 'auto' as const }),
    rest,
    makeCache: makeDiscordCache,
    // Belt and braces: every message also carries its own allowed_mentions.
    allowedMentions: { parse: [] },
  });
}
