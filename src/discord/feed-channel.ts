import {
  ChannelType,
  PermissionFlagsBits,
  type ChatInputCommandInteraction,
  type Client,
  type NewsChannel,
  type TextChannel,
} from 'discord.js';

import { UserFacingError } from '../base/errors.js';

/** The channel types a feed can post to; every channel option of /feed is limited to them. */
export const FEED_CHANNEL_TYPES = [ChannelType.GuildText, ChannelType.GuildAnnouncement] as const;

/** What the bot needs in a channel to post its embeds, with the names Discord's settings show. */
const POSTING_PERMISSIONS = [
  { bit: PermissionFlagsBits.ViewChannel, name: 'View Channel' },
  { bit: PermissionFlagsBits.SendMessages, name: 'Send Messages' },
  { bit: PermissionFlagsBits.EmbedLinks, name: 'Embed Links' },
];

/**
 * A feed channel also takes replies to its cards (a voided case, an escalated modcall), which Discord refuses
 * without this.
 */
const REPLYING_PERMISSIONS = [{ bit: PermissionFlagsBits.ReadMessageHistory, name: 'Read Message History' }];

export type FeedChannel = TextChannel | NewsChannel;

/**
 * The text or announcement channel of this guild that the option names, from the client's cache (the Guilds
 * intent keeps every channel there) or fetched.
 * @throws UserFacingError for a channel of another kind, another guild, or one the bot cannot see at all
 */
export async function readFeedChannel(
  interaction: ChatInputCommandInteraction,
  client: Client,
  guildId: string,
  option: string,
): Promise<FeedChannel> {
  const chosen = interaction.options.getChannel(option, true);
  const channel = await client.channels.fetch(chosen.id).catch(() => null);
  if (!channel) {
    throw new UserFacingError(`I cannot see <#${chosen.id}>: give me View Channel there, or choose another channel.`);
  }
  if (channel.type !== ChannelType.GuildText && channel.type !== ChannelType.GuildAnnouncement) {
    throw new UserFacingError('Choose a text or announcement channel.');
  }
  if (channel.guildId !== guildId) throw new UserFacingError('Choose a channel of this server.');
  return channel;
}

/** The permissions the bot lacks in `channel` to post embeds (names as Discord shows them); empty when none. */
export async function findMissingPermissions(
  channel: FeedChannel,
  required: readonly { bit: bigint; name: string }[] = POSTING_PERMISSIONS,
): Promise<string[]> {
  const me = channel.guild.members.me ?? (await channel.guild.members.fetchMe());
  const permissions = channel.permissionsFor(me);
  return required.filter(({ bit }) => !permissions.has(bit)).map(({ name }) => name);
}

/**
 * Refuses a channel the bot cannot post embeds to. Refusing (rather than saving with a warning) keeps the
 * routes truthful: a saved route to such a channel would only mark it broken at the first event and leave
 * the events waiting, which the admin would learn much later, in /status.
 * @throws UserFacingError naming the missing permissions
 */
export async function requirePostableChannel(channel: FeedChannel): Promise<void> {
  refuseMissing(channel, 'post embeds', await findMissingPermissions(channel));
}

/**
 * Refuses a channel the feed cannot post to, or reply to its cards in (Read Message History): a reply Discord
 * refuses is posted without its reference, so the admin is told now rather than seeing loose replies later.
 * @throws UserFacingError naming the missing permissions
 */
export async function requireFeedChannel(channel: FeedChannel): Promise<void> {
  const missing = await findMissingPermissions(channel, [...POSTING_PERMISSIONS, ...REPLYING_PERMISSIONS]);
  const cannotPost = missing.some((name) => POSTING_PERMISSIONS.some((permission) => permission.name === name));
  refuseMissing(channel, cannotPost ? 'post embeds' : 'reply to my cards', missing);
}

function refuseMissing(channel: FeedChannel, what: string, missing: readonly string[]): void {
  if (missing.length === 0) return;
  throw new UserFacingError(
    `I cannot ${what} in <#${channel.id}>: I am missing ${missing.join(', ')} there. ` +
      'Grant them (or choose another channel) and run the command again; nothing was saved.',
  );
}
