import type { ChatInputCommandInteraction } from 'discord.js';

import { deferEphemeral, replyEphemeral } from '../../../../discord/reply.js';
import { formatName } from '../../../../embeds/format.js';
import { describeApp, describeAppLine } from '../../describe-apps.js';
import type { AppCommandDeps } from '../app.js';
import { askService, loadApps, resolveApp } from './shared.js';

/** /app list: the account's apps, the version waiting for review and since when, and where cards go. */
export async function listApps(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const guild = await ctx.appDocuments.readGuild(guildId);
  await deferEphemeral(interaction);
  const apps = await loadApps(ctx, guild);
  const account = guild.accountName === null ? 'the developer account' : formatName(guild.accountName);
  if (apps.length === 0) {
    await replyEphemeral(interaction, `${account} has no apps yet: /app new sends a first one for review.`);
    return;
  }
  const lines = apps.map((app) => describeAppLine(app, guild.watches[app.id]));
  await replyEphemeral(interaction, [`**Apps of ${account}** (${apps.length})`, ...lines].join('\n'));
}

/** /app show app: one app's versions with their review states, the waiting one first. */
export async function showApp(
  interaction: ChatInputCommandInteraction,
  ctx: AppCommandDeps,
  guildId: string,
): Promise<void> {
  const guild = await ctx.appDocuments.readGuild(guildId);
  await deferEphemeral(interaction);
  const app = await resolveApp(ctx, guild, interaction.options.getString('app', true));
  const detail = await askService(ctx, guild, 'read the app', (caller) => ctx.developer.getApp(caller, app.id));
  const cards = (await ctx.appDocuments.readCards(guildId, app.id)).versions;
  await replyEphemeral(interaction, describeApp(detail, cards, guild.watches[app.id]).join('\n'));
}
