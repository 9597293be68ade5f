import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder } from 'discord.js';

import type { Command, CommandBasics } from '../../../discord/command.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import type { RecordDeps } from '../feature.js';
import { MAX_RECORD_RETENTION_DAYS } from '../store/community-record.js';

/** What /record is given. */
export type RecordCommandDeps = CommandBasics & RecordDeps;

/** /record retention|staff-role: how long this server's record is kept, and who besides admins may read it. */
export const recordCommand: Command<RecordCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('record')
    .setDescription("This server's record of cases, shifts, sessions and modcalls")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('retention')
        .setDescription('How long the record is kept (400 days unless set)')
        .addIntegerOption((option) =>
          option
            .setName('days')
            .setDescription('Days; older cases, shifts, sessions and modcalls are deleted')
            .setRequired(true)
            .setMinValue(1)
            .setMaxValue(MAX_RECORD_RETENTION_DAYS),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('staff-role')
        .setDescription('Let a role read the record (/case lookup); leave empty for admins only')
        .addRoleOption((option) => option.setName('role').setDescription('The staff role')),
    ),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'retention': {
        const days = interaction.options.getInteger('days', true);
        await ctx.community.setRetentionDays(guildId, days);
        return replyEphemeral(
          interaction,
          `This server's record is now kept ${days} ${days === 1 ? 'day' : 'days'}: anything older goes at the next hourly sweep.`,
        );
      }
      case 'staff-role': {
        const role = interaction.options.getRole('role');
        await ctx.community.setStaffRole(guildId, role?.id ?? null);
        return replyEphemeral(
          interaction,
          role
            ? `Members of <@&${role.id}> may now read this server's record (/case lookup), as admins may.`
            : "Only members with Manage Server may read this server's record now.",
        );
      }
      default:
        throw new Error(`unknown /record subcommand ${subcommand}`);
    }
  },
};
