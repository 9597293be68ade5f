import { PermissionFlagsBits, type ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import type { CommandBasics } from '../../../../discord/command.js';
import { replyEphemeral } from '../../../../discord/reply.js';
import type { GuildSettingsStore } from '../../../../store/guild-settings.js';
import type { CardsDeps } from '../../feature.js';
import { applyEscalation, applyOnDutyFirst } from './escalation.js';

/** What /feed mention is given: the cards' escalation settings, and the routing's mentions. */
export type FeedMentionDeps = Pick<CommandBasics, 'client'> &
  Pick<CardsDeps, 'cards'> & { guilds: Pick<GuildSettingsStore, 'update'> };

/** /feed mention event [role]: pings a role with an event; without a role, stops pinging for it. */
export async function setEventMention(
  interaction: ChatInputCommandInteraction,
  ctx: FeedMentionDeps,
  guildId: string,
): Promise<void> {
  const event = interaction.options.getString('event', true);
  const role = interaction.options.getRole('role');
  const escalation = await applyEscalation(interaction, ctx, guildId, event);
  const onDutyFirst = await applyOnDutyFirst(interaction, ctx, guildId, event);
  const steps = [onDutyFirst, escalation].filter((said): said is string => said !== undefined).join(' ');
  // Escalation or on-duty-first alone leaves the event's ping as it is.
  if (steps !== '' && !role) return replyEphemeral(interaction, steps);
  if (!role) {
    await ctx.guilds.update(guildId, (settings) => {
      const mentions = { ...settings.mentions };
      delete mentions[event];
      return { ...settings, mentions };
    });
    await replyEphemeral(interaction, `${event} no longer pings anyone.`);
    return;
  }
  // @everyone's id is the guild's; Discord's allowed_mentions cannot name it as a role, and it should not be pinged.
  if (role.id === guildId) throw new UserFacingError('Choose a role other than @everyone.');
  await ctx.guilds.update(guildId, (settings) => ({
    ...settings,
    mentions: { ...settings.mentions, [event]: role.id },
  }));
  const warning = role.mentionable || (await canMentionAnyRole(ctx, guildId)) ? '' : ` ${NOT_MENTIONABLE}`;
  await replyEphemeral(interaction, `${event} now pings <@&${role.id}>.${warning}${steps ? ` ${steps}` : ''}`);
}

const NOT_MENTIONABLE =
  'Note: that role is not mentionable and I lack "Mention @everyone, @here and All Roles", so Discord will show the ' +
  'mention without pinging anyone. Make the role mentionable in Server Settings, or grant me that permission.';

/** Whether the bot may ping roles that are not mentionable. */
async function canMentionAnyRole(ctx: Pick<FeedMentionDeps, 'client'>, guildId: string): Promise<boolean> {
  const guild = await ctx.client.guilds.fetch(guildId);
  const me = guild.members.me ?? (await guild.members.fetchMe());
  return me.permissions.has(PermissionFlagsBits.MentionEveryone);
}
