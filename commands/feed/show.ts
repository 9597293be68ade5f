import type { ChatInputCommandInteraction } from 'discord.js';

import { replyEphemeral } from '../../src/discord/reply.js';
import { EVENT_NAMES } from '../../src/upstream/schemas.js';
import type { CommandContext } from '../context.js';

/** /feed show: where each event goes and whom it pings. */
export async function showRoutes(
  interaction: ChatInputCommandInteraction,
  ctx: CommandContext,
  guildId: string,
): Promise<void> {
  const settings = await ctx.guilds.get(guildId);
  const fallback = settings.defaultChannelId ? `<#${settings.defaultChannelId}>` : undefined;
  const lines = EVENT_NAMES.map((event) => {
    const own = settings.routes[event];
    const target = own ? `<#${own}>` : fallback ? `${fallback} (default)` : 'nowhere yet: its events wait';
    const role = settings.mentions[event];
    return `• ${event} → ${target}${role ? ` · pings <@&${role}>` : ''}`;
  });
  const header = `**Feed routes** · default channel: ${fallback ?? 'none'}`;
  const hint = fallback || Object.keys(settings.routes).length > 0 ? [] : ['Set one with /feed default or /feed set.'];
  await replyEphemeral(interaction, [header, ...lines, ...hint].join('\n'));
}
