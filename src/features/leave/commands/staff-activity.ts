import { MessageFlags, type ChatInputCommandInteraction, type SlashCommandSubcommandBuilder } from 'discord.js';

import type { CommandBasics } from '../../../discord/command.js';
import { requireRecordReader } from '../../record/index.js';
import { readActivity, type StaffActivityDeps } from '../activity-report.js';
import { describeActivity } from '../describe-activity.js';

/**
 * /staff activity [period:] [role:]: its definition, added to the record's /staff. `periodOption` is the record's
 * own (the same periods as /staff stats).
 */
export function defineStaffActivity(
  periodOption: Parameters<SlashCommandSubcommandBuilder['addStringOption']>[0],
): (sub: SlashCommandSubcommandBuilder) => SlashCommandSubcommandBuilder {
  return (sub) =>
    sub
      .setName('activity')
      .setDescription("Each member's hours, shifts, cases and claims against their quota, leave counted, and flags")
      .addStringOption(periodOption)
      .addRoleOption((option) => option.setName('role').setDescription('Only members of this role'));
}

/** /staff activity: read by the record's readers (the staff role, or Manage Server). */
export async function showStaffActivity(
  interaction: ChatInputCommandInteraction,
  ctx: CommandBasics & StaffActivityDeps,
  range: { from: number; to: number; label: string },
): Promise<void> {
  const guildId = await requireRecordReader(interaction, ctx.activity.community);
  await interaction.deferReply({ flags: MessageFlags.Ephemeral });
  const role = interaction.options.getRole('role');
  // The interaction's own: where the shards are spread over processes, its shard's client keeps the guild.
  const guild = interaction.guild ?? ctx.client.guilds.cache.get(guildId);
  const { members, cut } = await readActivity(ctx.activity, guild, guildId, range, ctx.clock(), role?.id ?? null);
  const label = role === null ? range.label : `${range.label}, <@&${role.id}>`;
  await interaction.editReply({ embeds: [describeActivity(members, label, cut)], allowedMentions: { parse: [] } });
}
