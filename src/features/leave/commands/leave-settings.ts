import type { ChatInputCommandInteraction } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import { isTimeZone } from '../../../base/time-zone.js';
import { requireGrantableRole } from '../../../discord/check-role-grant.js';
import { readFeedChannel, requirePostableChannel } from '../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { MAX_LEAVE_DAYS } from '../leave-dates.js';
import { LEAVE_ROLE } from '../leave-job.js';
import type { LeaveCommandDeps } from './leave.js';

/*
 * /leave channel|managers|role: the admins' settings of leave (where requests go and in which time zone, who
 * decides them, which role members on leave get), apart from what members ask (leave.ts).
 */

export async function setChannel(interaction: ChatInputCommandInteraction, ctx: LeaveCommandDeps): Promise<void> {
  const guildId = requireAdmin(interaction);
  const timeZone = (interaction.options.getString('timezone') ?? 'UTC').trim();
  if (!isTimeZone(timeZone)) {
    throw new UserFacingError(
      `I do not know the time zone "${timeZone}": give one like Europe/Berlin or America/New_York. Nothing was saved.`,
    );
  }
  if (interaction.options.getChannel('channel') === null) {
    await ctx.leave.setChannel(guildId, null, (await ctx.leave.settingsOf(guildId)).timeZone);
    return replyEphemeral(interaction, 'Leave requests are closed: requests already made stay as they are.');
  }
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  await requirePostableChannel(channel);
  await ctx.leave.setChannel(guildId, channel.id, timeZone);
  const { managerRoleId } = await ctx.leave.settingsOf(guildId);
  return replyEphemeral(
    interaction,
    `Leave requests are posted in <#${channel.id}>, their days read in ${timeZone} (at most ${MAX_LEAVE_DAYS} days). ` +
      (managerRoleId === null
        ? 'Choose who approves them with /leave managers (until then, members with Manage Server do).'
        : `<@&${managerRoleId}> approve and deny them.`),
  );
}

export async function setManagers(interaction: ChatInputCommandInteraction, ctx: LeaveCommandDeps): Promise<void> {
  const guildId = requireAdmin(interaction);
  const role = interaction.options.getRole('role', true);
  if (role.id === guildId)
    throw new UserFacingError('@everyone cannot be the leave managers: choose a role of its own.');
  await ctx.leave.setManagerRole(guildId, role.id);
  return replyEphemeral(
    interaction,
    `<@&${role.id}> now approve and deny leave requests (and members with Manage Server).`,
  );
}

export async function setRole(interaction: ChatInputCommandInteraction, ctx: LeaveCommandDeps): Promise<void> {
  const guildId = requireAdmin(interaction);
  const chosen = interaction.options.getRole('role');
  if (chosen === null) {
    await ctx.leave.setRole(guildId, null, null);
    return replyEphemeral(
      interaction,
      'No role is given for leave any more (those who hold it now keep it until their leave ends).',
    );
  }
  await requireGrantableRole(interaction, ctx.client, guildId, chosen.id, LEAVE_ROLE);
  await ctx.leave.setRole(guildId, chosen.id, interaction.user.id);
  return replyEphemeral(
    interaction,
    `Members on approved leave now get <@&${chosen.id}> from its first day, and lose it when it ends. It is given ` +
      'only while you, and the leave manager who approved, could give it yourselves.',
  );
}
