import type { ChatInputCommandInteraction } from 'discord.js';

import { readFeedChannel, requirePostableChannel } from '../../src/admin/feed-channel.js';
import { replyEphemeral } from '../../src/discord/reply.js';
import type { CommandContext } from '../context.js';

/** /feed set event channel: sends one event to its own channel. */
export async function setEventChannel(
  interaction: ChatInputCommandInteraction,
  ctx: CommandContext,
  guildId: string,
): Promise<void> {
  const event = interaction.options.getString('event', true);
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  await requirePostableChannel(channel);
  // update() also makes the feed try this guild's broken channels again.
  await ctx.guilds.update(guildId, (settings) => ({
    ...settings,
    routes: { ...settings.routes, [event]: channel.id },
  }));
  const hooks = await ctx.hooks.listForGuild(guildId);
  const delivered = hooks.some((hook) => hook.events.includes(event));
  const note = delivered ? '' : ` No webhook of this server delivers ${event} yet: /webhook register.`;
  await replyEphemeral(interaction, `${event} now goes to <#${channel.id}>.${note}`);
}
