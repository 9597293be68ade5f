import {
  AttachmentBuilder,
  InteractionContextType,
  MessageFlags,
  SlashCommandBuilder,
  type APIEmbed,
} from 'discord.js';

import type { Command, CommandBasics } from '../../../discord/command.js';
import { defineStaffActivity, showStaffActivity, type StaffActivityDeps } from '../../leave/index.js';
import { hoursChartAnswer } from '../chart-answers.js';
import { describeModcallResponse, describeStaffStats } from '../describe-stats.js';
import type { RecordDeps } from '../feature.js';
import { chosenPeriod, periodOption, periodRange } from '../periods.js';
import { requireRecordReader } from '../record-access.js';

/** What /staff is given. */
export type StaffCommandDeps = CommandBasics & RecordDeps & StaffActivityDeps;

const NO_MENTIONS = { parse: [] };

/** /staff stats member: [period:], /staff response [period:]: the staff's work, from the community record. */
export const staffCommand: Command<StaffCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('staff')
    .setDescription("The staff's work in this server's record")
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('stats')
        .setDescription("A member's cases, shifts and modcalls")
        .addUserOption((option) => option.setName('member').setDescription('Whom').setRequired(true))
        .addStringOption(periodOption),
    )
    .addSubcommand((sub) =>
      sub
        .setName('response')
        .setDescription('How fast modcalls were claimed and resolved, and by whom')
        .addStringOption(periodOption),
    )
    // The leave feature's part: its logic and answer are there (src/features/leave/commands/staff-activity.ts).
    .addSubcommand(defineStaffActivity(periodOption)),

  async execute(interaction, ctx) {
    if (interaction.options.getSubcommand(true) === 'activity') {
      const range = periodRange(chosenPeriod(interaction.options.getString('period')), ctx.clock());
      return showStaffActivity(interaction, ctx, range);
    }
    const guildId = await requireRecordReader(interaction, ctx.community);
    // A chart may take a moment (its process starts at the first one): Discord wants an answer within 3 s.
    await interaction.deferReply({ flags: MessageFlags.Ephemeral });
    const period = chosenPeriod(interaction.options.getString('period'));
    const range = periodRange(period, ctx.clock());
    const subcommand = interaction.options.getSubcommand(true);
    const embeds: APIEmbed[] = [];
    let files: AttachmentBuilder[] = [];
    if (subcommand === 'stats') {
      const member = interaction.options.getUser('member', true);
      const [cases, shifts, modcalls, days] = await Promise.all([
        ctx.community.staffCases(guildId, member.id, range),
        ctx.community.shiftTotals(guildId, member.id, range),
        ctx.community.memberModcalls(guildId, member.id, range),
        ctx.community.shiftDays(guildId, member.id, range),
      ]);
      embeds.push(describeStaffStats(member.id, range.label, { cases, shifts, modcalls }));
      // The hours per day as a chart in an embed of its own, the same numbers in text above it; none for a
      // period of one day or without time on shift.
      const chart = await hoursChartAnswer(ctx.charts, range, ctx.clock(), days);
      if (chart) {
        embeds.push(chart.embed);
        files = [new AttachmentBuilder(chart.file.png, { name: chart.file.name, description: chart.file.description })];
      }
    } else if (subcommand === 'response') {
      embeds.push(describeModcallResponse(range.label, await ctx.community.modcallResponse(guildId, range)));
    } else {
      throw new Error(`unknown /staff subcommand ${subcommand}`);
    }
    await interaction.editReply({ embeds, files, allowedMentions: NO_MENTIONS });
  },

  readOnly: () => true,
};
