import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { readFeedChannel, requirePostableChannel } from '../../../../discord/feed-channel.js';
import { deferEphemeral, replyEphemeral } from '../../../../discord/reply.js';
import { formatName } from '../../../../embeds/format.js';
import type { AppCommandDeps } from '../app.js';
import { resolveApp } from './shared.js';

/**
 * /app watch app channel [role]: release cards for the app in that channel, one per version, edited as its
 * review moves; an outcome pings the role. The first card (the waiting version, or the latest) follows with
 * the next poll, which is asked for at once.
 */
export async function watchApp(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  await requirePostableChannel(channel);
  const role = interaction.options.getRole('role');
  if (role?.id === guildId) throw new UserFacingError('Choose a role other than @everyone.');
  const guild = await ctx.appDocuments.readGuild(guildId);
  await deferEphemeral(interaction);
  const app = await resolveApp(ctx, guild, interaction.options.getString('app', true));
  const replaced = guild.watches[app.id] !== undefined;
  await ctx.appDocuments.updateGuild(guildId, (current) => ({
    ...current,
    watches: {
      ...current.watches,
      [app.id]: {
        appId: app.id,
        appName: app.name,
        channelId: channel.id,
        roleId: role?.id ?? null,
        createdAt: current.watches[app.id]?.createdAt ?? ctx.clock(),
        createdBy: interaction.user.id,
        // A watch moved to another channel keeps its history: its cards are posted anew there.
        baseline: current.watches[app.id]?.baseline ?? null,
      },
    },
  }));
  ctx.releases.pollSoon(guildId, app.id);
  const ping = role ? ` An outcome pings <@&${role.id}>.` : ' Outcomes ping nobody (add role: to ping one).';
  await replyEphemeral(
    interaction,
    `${replaced ? 'Updated: release' : 'Release'} cards of **${formatName(app.name)}** go to <#${channel.id}>, one per version, edited as its review moves.${ping} ` +
      'The first card (the version waiting for review, or else the latest) follows within a minute; older versions get none.',
  );
}

/** /app unwatch app: no more cards for the app; the posted ones stay in the channel. */
export async function unwatchApp(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const typed = interaction.options.getString('app', true).trim();
  const guild = await ctx.appDocuments.readGuild(guildId);
  const watch =
    guild.watches[typed] ??
    Object.values(guild.watches).find((candidate) => candidate.appName.toLowerCase() === typed.toLowerCase());
  if (!watch) throw new UserFacingError('No watched app by that name: /app list shows where cards go.');
  await ctx.appDocuments.updateGuild(guildId, (current) => {
    const watches = { ...current.watches };
    delete watches[watch.appId];
    return { ...current, watches };
  });
  await ctx.appDocuments.deleteCards(guildId, watch.appId);
  await replyEphemeral(
    interaction,
    `Release cards of **${formatName(watch.appName)}** stop. The cards already in <#${watch.channelId}> stay as they are.`,
  );
}
