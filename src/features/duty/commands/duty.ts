import {
  ChannelType,
  InteractionContextType,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type ChatInputCommandInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import { requireGrantableRole } from '../../../discord/check-role-grant.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { readFeedChannel, requirePostableChannel } from '../../../discord/feed-channel.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { AFTER_MINUTES_LIMITS, DEFAULT_AFTER_MINUTES, MIN_STAFF_LIMITS } from '../coverage.js';
import type { DutyDeps } from '../feature.js';
import { ON_DUTY_ROLE, SHIFT_NEVER_ENDED_AFTER_MS } from '../index.js';

/** What /duty is given: the duty feature's dependencies (where health alerts go among them), no more. */
export type DutyCommandDeps = CommandBasics & DutyDeps;

const NEVER_ENDED_HOURS = SHIFT_NEVER_ENDED_AFTER_MS / 3_600_000;

/**
 * /duty board|role|minimum: the on-duty board (one message listing the staff on shift now, kept up to date), the
 * role the members on shift are given, and the coverage guard (an alert while a session runs with fewer staff on
 * shift than a minimum). board and role without their option, and minimum with staff:0, turn that off.
 */
export const dutyCommand: Command<DutyCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('duty')
    .setDescription('Who is on duty: a live board, and a role for the staff on shift')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('board')
        .setDescription('Keep a message listing the staff on shift now; leave the channel empty to stop')
        .addChannelOption((option) =>
          option
            .setName('channel')
            .setDescription('Where the board is kept')
            .addChannelTypes(ChannelType.GuildText, ChannelType.GuildAnnouncement),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('role')
        .setDescription('Give a role to the staff on shift, and take it back when it ends; leave empty to stop')
        .addRoleOption((option) => option.setName('role').setDescription('The on-duty role')),
    )
    .addSubcommand((sub) =>
      sub
        .setName('minimum')
        .setDescription('Alert when a session runs with fewer staff on shift than this; staff:0 stops it')
        .addIntegerOption((option) =>
          option
            .setName('staff')
            .setDescription(
              `The least staff on shift while a session runs (0 to stop, at most ${MIN_STAFF_LIMITS.most})`,
            )
            .setRequired(true)
            .setMinValue(0)
            .setMaxValue(MIN_STAFF_LIMITS.most),
        )
        .addIntegerOption((option) =>
          option
            .setName('after')
            .setDescription(`Minutes short before the alert (default ${DEFAULT_AFTER_MINUTES})`)
            .setMinValue(AFTER_MINUTES_LIMITS.least)
            .setMaxValue(AFTER_MINUTES_LIMITS.most),
        ),
    ),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'board':
        return setBoard(interaction, ctx, guildId);
      case 'role':
        return setRole(interaction, ctx, guildId);
      case 'minimum':
        return setMinimum(interaction, ctx, guildId);
      default:
        throw new Error(`unknown /duty subcommand ${subcommand}`);
    }
  },
};

async function setBoard(interaction: ChatInputCommandInteraction, ctx: DutyCommandDeps, guildId: string) {
  if (interaction.options.getChannel('channel') === null) {
    const { boardChannelId } = await ctx.duty.settingsOf(guildId);
    await ctx.duty.setBoardChannel(guildId, null);
    return replyEphemeral(
      interaction,
      boardChannelId === null
        ? 'There is no on-duty board to stop.'
        : `The on-duty board in <#${boardChannelId}> is no longer updated; delete its message when you like.`,
    );
  }
  const channel = await readFeedChannel(interaction, ctx.client, guildId, 'channel');
  // Checked now, not at the first shift: View Channel, Send Messages and Embed Links, named if missing.
  await requirePostableChannel(channel);
  await ctx.duty.setBoardChannel(guildId, channel.id);
  ctx.dutyChanged(guildId);
  return replyEphemeral(
    interaction,
    `The on-duty board is now kept in <#${channel.id}>: one message listing the staff on shift, edited as shifts ` +
      `start and end. A shift open over ${NEVER_ENDED_HOURS} h is shown apart as never ended.`,
  );
}

async function setRole(interaction: ChatInputCommandInteraction, ctx: DutyCommandDeps, guildId: string) {
  const chosen = interaction.options.getRole('role');
  if (chosen === null) {
    const { roleId } = await ctx.duty.settingsOf(guildId);
    await ctx.duty.setRole(guildId, null, null);
    // The members given the role for a shift lose it.
    ctx.dutyChanged(guildId);
    return replyEphemeral(
      interaction,
      roleId === null
        ? 'No on-duty role is set.'
        : `The staff on shift are no longer given <@&${roleId}>; the members on shift who have it lose it now.`,
    );
  }
  await requireGrantableRole(interaction, ctx.client, guildId, chosen.id, ON_DUTY_ROLE);
  await ctx.duty.setRole(guildId, chosen.id, interaction.user.id);
  ctx.dutyChanged(guildId);
  return replyEphemeral(
    interaction,
    `The staff on shift now get <@&${chosen.id}>, and lose it when their shift ends (or after ${NEVER_ENDED_HOURS} h ` +
      'with no end).',
  );
}

async function setMinimum(interaction: ChatInputCommandInteraction, ctx: DutyCommandDeps, guildId: string) {
  const staff = interaction.options.getInteger('staff', true);
  const after = interaction.options.getInteger('after');
  if (staff === 0) {
    const { minimum } = await ctx.duty.coverageOf(guildId);
    await ctx.duty.setMinimum(guildId, null);
    // An alert open about it is resolved.
    ctx.dutyChanged(guildId);
    return replyEphemeral(
      interaction,
      minimum === null
        ? 'No minimum of staff is set.'
        : `The minimum of ${minimum.staff} staff on shift is off: no alert when a session runs short of staff.`,
    );
  }
  if (staff < MIN_STAFF_LIMITS.least || staff > MIN_STAFF_LIMITS.most) {
    throw new UserFacingError(
      `The minimum is ${MIN_STAFF_LIMITS.least} to ${MIN_STAFF_LIMITS.most} staff (staff:0 stops it). Nothing was saved.`,
    );
  }
  if (after !== null && (after < AFTER_MINUTES_LIMITS.least || after > AFTER_MINUTES_LIMITS.most)) {
    throw new UserFacingError(
      `The wait (after) is ${AFTER_MINUTES_LIMITS.least} to ${AFTER_MINUTES_LIMITS.most} minutes. Nothing was saved.`,
    );
  }
  const afterMinutes = after ?? DEFAULT_AFTER_MINUTES;
  await ctx.duty.setMinimum(guildId, { staff, afterMinutes });
  ctx.dutyChanged(guildId);
  const alerts = await ctx.alertSettings.get(guildId);
  const where = alerts
    ? `The alert goes to <#${alerts.channelId}>${alerts.roleId ? `, pinging <@&${alerts.roleId}> once` : ''}: one ` +
      'message, edited as shifts start and end, resolved when enough staff are on shift or the session ends.'
    : 'No alert channel is set yet: choose one with /alerts set, or the alert is kept until you do.';
  const wait = afterMinutes === 0 ? 'at once' : `for more than ${afterMinutes} minute${afterMinutes === 1 ? '' : 's'}`;
  return replyEphemeral(
    interaction,
    `While a session runs, at least ${staff} staff should be on shift: an alert when fewer are, ${wait}. ` +
      `A shift open over ${NEVER_ENDED_HOURS} h does not count. ${where}`,
  );
}
