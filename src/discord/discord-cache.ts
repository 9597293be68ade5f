import { Collection, Options, type CacheFactory } from 'discord.js';

/**
 * The discord.js caches that keep nothing, by manager name (or the name discord.js asks for: every message
 * manager is `MessageManager`, every thread manager `ThreadManager`).
 *
 * Channels: the bot reads no channel from the cache. Every channel it checks is one an admin names in a command,
 * read with `client.channels.fetch` (discord/feed-channel.ts), which asks Discord when the channel is not cached;
 * its permissions are then computed from what Discord says now, as the bot re-checks at the moment it acts. It
 * posts, edits and starts threads by channel id through REST, and a button's message is built from the interaction
 * when its channel is not cached. Keeping no channel drops their overwrites, messages and threads too: four fifths
 * of a guild's heap (docs/benchmarks.md, "Memory per guild"). discord.js documents limiting the channel caches as
 * unsupported: what that breaks is `guild.channels.cache`, `interaction.channel` and `message.channel` being empty
 * or null, which the bot never reads (test/integration/discord-cache.test.ts checks what it does read).
 *
 * The rest the bot never reads either: messages go out through REST (discord/posting/poster.ts), and emojis,
 * stickers, presences, reactions, voice states, thread members, bans, invites, scheduled events, stage instances,
 * soundboard sounds and a guild's own commands arrive in GUILD_CREATE or later events only to be dropped.
 */
const KEEPS_NOTHING = [
  'ChannelManager',
  'GuildChannelManager',
  'MessageManager',
  'ThreadManager',
  'ThreadMemberManager',
  'PresenceManager',
  'ReactionManager',
  'ReactionUserManager',
  'VoiceStateManager',
  'BaseGuildEmojiManager',
  'GuildEmojiManager',
  'GuildStickerManager',
  'GuildBanManager',
  'GuildInviteManager',
  'GuildScheduledEventManager',
  'StageInstanceManager',
  'AutoModerationRuleManager',
  'GuildSoundboardSoundManager',
  'GuildApplicationCommandManager',
  'EntitlementManager',
  'SubscriptionManager',
  'PollAnswerVoterManager',
] as const;

/**
 * A cache that keeps nothing: every entry it is given is refused, so it is empty whichever manager holds it, and one
 * instance serves every manager of {@link KEEPS_NOTHING}: a guild's dozen managers (and each channel's three) no
 * longer hold a map each (about 2 KB a guild). A `LimitedCollection` of size 0 would keep nothing too, but for the
 * channel managers discord.js then prints `UnsupportedCacheOverwriteWarning` to stderr at start, where a host reads
 * only the bot's own lines (npm start's one-line errors): this cache is a choice made and tested here
 * (test/integration/discord-cache.test.ts), not a mistake to warn of.
 */
class KeepsNothing<K, V> extends Collection<K, V> {
  override set(): this {
    return this;
  }

  // What a filter or a map of it makes is an ordinary collection (empty anyway), one that keeps what it is given.
  static override get [Symbol.species]() {
    return Collection;
  }
}

const EMPTY = new KeepsNothing<string, never>();

/**
 * Kept partly: the bot's own member in each guild (`guild.members.me`, its permissions in a channel) and its own
 * user. A member or user arriving with an interaction is read from the interaction, which holds it uncached.
 * Kept whole, as discord.js needs them: the guilds (`interaction.guild`, a guild's removal), and their roles,
 * which every permission and role-hierarchy check reads (a member's roles are the guild's cached roles it holds:
 * `member.roles.cache`, `.highest`, `.permissions`) and whose updates the on-duty role keeper hears.
 */
const KEEPS_SOME = Options.cacheWithLimits({
  GuildMemberManager: { maxSize: 0, keepOverLimit: (member) => member.id === member.client.user.id },
  UserManager: { maxSize: 0, keepOverLimit: (user) => user.id === user.client.user.id },
});

const keepsNothing = new Set<string>(KEEPS_NOTHING);

/** What discord.js keeps (the client's `makeCache`): only what the bot reads. */
export const makeDiscordCache: CacheFactory = (managerType, holds, manager) =>
  keepsNothing.has(manager.name) || keepsNothing.has(managerType.name)
    ? EMPTY
    : KEEPS_SOME(managerType, holds, manager);
