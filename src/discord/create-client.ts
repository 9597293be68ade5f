import { Client, GatewayIntentBits, type RESTOptions } from 'discord.js';

export interface DiscordClientOptions {
  /** REST base override (DISCORD_API_URL), e.g. http://127.0.0.1:9999/api; the gateway URL then comes from it. */
  apiUrl?: string | undefined;
  /** Per-request timeout and retries of discord.js's own REST layer; the feed adds its own backoff on top. */
  rest?: Partial<Pick<RESTOptions, 'timeout' | 'retries'>>;
}

/**
 * A discord.js client with only the Guilds intent: the bot reads no messages and no members, it needs guilds,
 * channels and roles (for permission checks) and interactions, which arrive without any intent.
 */
export function createDiscordClient(options: DiscordClientOptions = {}): Client {
  const rest: Partial<RESTOptions> = { ...options.rest };
  if (options.apiUrl) rest.api = options.apiUrl;
  return new Client({
    intents: [GatewayIntentBits.Guilds],
    rest,
    // Belt and braces: every message also carries its own allowed_mentions.
    allowedMentions: { parse: [] },
  });
}
