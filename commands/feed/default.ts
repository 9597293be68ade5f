import type { ChatInputCommandInteraction } from 'discord.js';

import { readFeedChannel, requireFeedChannel } from '../../src/discord/feed-channel.js';
import { replyEphemeral } from '../../src/discord/reply.js';
import type { FeedDeps } from '../feed.js';

/** /feed default channel: where every event without a channel of its own goes. */
export async function setDefaultChannel(
  interaction: ChatInputCommandInteraction,
  ctx: FeedDeps,
  guildId: string,
): Promise<void> {
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  await requireFeedChannel(channel);
  await ctx.guilds.update(guildId, (settings) => ({ ...settings, defaultChannelId: channel.id }));
  await replyEphemeral(interaction, `Events without a channel of their own now go to <#${channel.id}>.`);
}
