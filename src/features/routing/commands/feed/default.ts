import type { ChatInputCommandInteraction } from 'discord.js';

import { readFeedChannel, requireFeedChannel } from '../../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import { replayOffer } from '../../../replay/index.js';
import type { FeedRoutingDeps } from '../command-deps.js';

/** /feed default channel: where every event without a channel of its own goes. */
export async function setDefaultChannel(
  interaction: ChatInputCommandInteraction,
  ctx: FeedRoutingDeps,
  guildId: string,
): Promise<void> {
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  await requireFeedChannel(channel);
  await ctx.guilds.update(guildId, (settings) => ({ ...settings, defaultChannelId: channel.id }));
  await replyEphemeral(
    interaction,
    `Events without a channel of their own now go to <#${channel.id}>.`,
    replayOffer(channel.id, ctx.replays),
  );
}
