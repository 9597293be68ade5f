import { Client, GatewayIntentBits, type RESTOptions } from 'discord.js';

import { makeDiscordCache } from './discord-cache.js';

export interface DiscordClientOptions {
  /** REST base override (DISCORD_API_URL), e.g. http://127.0.0.1:9999/api; the gateway URL then comes from it. */
  apiUrl?: string | undefined;
  /** Per-request timeout and retries of discord.js's own REST layer; the feed adds its own backoff on top. */
  rest?: Partial<Pick<RESTOptions, 'timeout' | 'retries'>>;
}

/**
 * A discord.js client with only the Guilds intent: the bot reads no messages and no members, it needs guilds and
 * roles (for permission checks) and interactions, which arrive without any intent; it keeps only those
 * (discord-cache.ts).
 *
 * Sharded automatically: at each login discord.js asks `GET /gateway/bot` for Discord's recommended shard count
 * and opens one gateway connection per shard, all in this process (each identifying as `[id, count]`, paced by
 * `max_concurrency`). Discord recommends about one shard per 1 000 guilds and refuses a shard of over 2 500; the
 * count is read once per process (docs/hosting.md, "Many guilds").
 */
export function createDiscordClient(options: DiscordClientOptions = {}): Client {
  const rest: Partial<RESTOptions> = { ...options.rest };
  if (options.apiUrl) rest.api = options.apiUrl;
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    shards: 'auto',
    rest,
    makeCache: makeDiscordCache,
    // Belt and braces: every message also carries its own allowed_mentions.
    allowedMentions: { parse: [] },
  });
}
