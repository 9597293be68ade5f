import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  ChannelType,
  MessageFlags,
  type ChatInputCommandInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { customIdOf, type ButtonHandler, type CommandBasics } from '../../../../discord/command.js';
import { readFeedChannel, requireFeedChannel } from '../../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import { requireAdmin } from '../../../../discord/require-admin.js';
import type { ReplayDeps } from '../../feature.js';
import { describeReplayStarted } from '../../replay-desk.js';

/** What /feed replay and its button are given. */
export type FeedReplayDeps = Pick<CommandBasics, 'client'> & ReplayDeps;

/** The custom id of the Replay button /feed set and /feed default offer: `replay:start:<channel>`. */
export const REPLAY_BUTTON = 'replay:start';

/** /feed replay channel [hours]: posts the last hours of the events the channel's routes now send it. */
export async function startReplay(
  interaction: ChatInputCommandInteraction,
  ctx: FeedReplayDeps,
  guildId: string,
): Promise<void> {
  // The hours first: a request past the window is refused before anything else is looked at.
  const hours = ctx.replays.hoursOf(interaction.options.getInteger('hours') ?? undefined);
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  await requireFeedChannel(channel);
  const started = await ctx.replays.start({ guildId, channelId: channel.id, hours, startedBy: interaction.user.id });
  await replyEphemeral(interaction, describeReplayStarted(started));
}

/**
 * The button /feed set and /feed default answer with: replay the window's default hours into the channel just
 * routed (or none, when the host turned replay off).
 */
export function replayOffer(channelId: string, replays: Pick<ReplayDeps['replays'], 'windowHours'>) {
  if (replays.windowHours === 0) return [];
  const hours = Math.min(24, replays.windowHours);
  return [
    new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder()
        .setCustomId(customIdOf(REPLAY_BUTTON, channelId))
        .setLabel(`Replay the last ${hours} h here`)
        .setStyle(ButtonStyle.Secondary),
    ),
  ];
}

/**
 * A click on the Replay button: anyone who sees the reply could click, so Manage Server is checked again now, and
 * the channel read again (it may be gone, or the bot's permissions changed).
 */
export const replayButton: ButtonHandler<FeedReplayDeps> = {
  id: REPLAY_BUTTON,
  command: 'feed',

  async run(interaction, ctx, args) {
    const guildId = requireAdmin(interaction);
    const channelId = args;
    const channel = await ctx.client.channels.fetch(channelId).catch(() => null);
    const feedChannel =
      channel?.type === ChannelType.GuildText || channel?.type === ChannelType.GuildAnnouncement ? channel : undefined;
    if (!feedChannel || feedChannel.guildId !== guildId) {
      throw new UserFacingError(`I cannot see <#${channelId}> any more: run /feed replay with the channel.`);
    }
    await requireFeedChannel(feedChannel);
    const started = await ctx.replays.start({ guildId, channelId, hours: undefined, startedBy: interaction.user.id });
    await interaction.reply({
      content: describeReplayStarted(started),
      flags: MessageFlags.Ephemeral,
      allowedMentions: { parse: [] },
    });
  },
};
