import type { ChatInputCommandInteraction } from 'discord.js';

import { fitLines } from '../../../../base/truncate-text.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import { describeRules, SPECIFICITY_ORDER } from '../../route-rules.js';
import type { FeedRoutingDeps } from '../command-deps.js';

/** Discord's limit on a message's content. */
const MAX_CONTENT = 2_000;

/** /feed show: every rule, most specific first, and whom each pings. */
export async function showRoutes(
  interaction: ChatInputCommandInteraction,
  ctx: FeedRoutingDeps,
  guildId: string,
): Promise<void> {
  const settings = await ctx.guilds.get(guildId);
  const fallback = settings.defaultChannelId ? `<#${settings.defaultChannelId}>` : undefined;
  const header = [
    `**Feed routes** · default channel: ${fallback ?? 'none'}`,
    `The most specific rule wins: ${SPECIFICITY_ORDER}.`,
  ];
  const none = !fallback && Object.keys(settings.routes).length === 0 && settings.rules.length === 0;
  const hint = none ? ['Set one with /feed default or /feed set.'] : [];
  await replyEphemeral(interaction, fitLines([...header, ...describeRules(settings), ...hint], MAX_CONTENT));
}
