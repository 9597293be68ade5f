import { Client, GatewayIntentBits, Options, type RESTOptions } from 'discord.js';

export interface DiscordClientOptions {
  /** REST base override (DISCORD_API_URL), e.g. http://127.0.0.1:9999/api; the gateway URL then comes from it. */
  apiUrl?: string | undefined;
  /** Per-request timeout and retries of discord.js's own REST layer; the feed adds its own backoff on top. */
  rest?: Partial<Pick<RESTOptions, 'timeout' | 'retries'>>;
}

/**
 * What discord.js keeps: only what the bot reads. It reads guilds, channels and roles (kept whole: discord.js
 * cannot limit those) and its own member, for permission checks (discord/feed-channel.ts, /feed mention's
 * features/cards/commands/feed/mention.ts); a member or user arriving with an interaction is read from the
 * interaction, which holds it uncached. Messages
 * go out through REST (discord/posting/poster.ts) and a button's message is the interaction's own, so none is
 * kept; nor emojis, stickers, presences, reactions, voice states, thread members, bans, invites, scheduled
 * events or stage instances, which a large server sends in every GUILD_CREATE and the bot never reads.
 */
export const DISCORD_CACHE_LIMITS = Options.cacheWithLimits({
  MessageManager: 0,
  GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
  UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
  PresenceManager: 0,
  ReactionManager: 0,
  ReactionUserManager: 0,
  VoiceStateManager: 0,
  BaseGuildEmojiManager: 0,
  GuildEmojiManager: 0,
  GuildStickerManager: 0,
  ThreadMemberManager: 0,
  GuildBanManager: 0,
  GuildInviteManager: 0,
  GuildScheduledEventManager: 0,
  StageInstanceManager: 0,
  AutoModerationRuleManager: 0,
});

/**
 * A discord.js client with only the Guilds intent: the bot reads no messages and no members, it needs guilds,
 * channels and roles (for permission checks) and interactions, which arrive without any intent.
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
    makeCache: DISCORD_CACHE_LIMITS,
    // Belt and braces: every message also carries its own allowed_mentions.
    allowedMentions: { parse: [] },
  });
}
