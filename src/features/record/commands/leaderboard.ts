import { AttachmentBuilder, InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { leaderboardChartFile } from '../chart-answers.js';
import { describeLeaderboard, LEADERBOARD_SHOWN } from '../describe-stats.js';
import type { RecordDeps } from '../feature.js';
import { standingsWithRole } from '../members-with-role.js';
import { chosenPeriod, periodOption, periodRange } from '../periods.js';
import { requireRecordReader } from '../record-access.js';
import type { Board } from '../store/record-queries.js';

/** What /leaderboard is given. */
export type LeaderboardCommandDeps = CommandBasics & RecordDeps;

const NO_MENTIONS = { parse: [] };

const BOARDS: ReadonlyArray<{ name: Board; description: string }> = [
  { name: 'shifts', description: 'Hours on shift' },
  { name: 'cases', description: 'Cases made (voided ones not counted)' },
  { name: 'modcalls', description: 'Modcalls claimed' },
];

/** /leaderboard shifts|cases|modcalls [period:] [role:]: the top 10, and the caller's own place. */
export const leaderboardCommand: Command<LeaderboardCommandDeps> = (() => {
  const data = new SlashCommandBuilder()
    .setName('leaderboard')
    .setDescription("The staff's top 10 in this server's record")
    .setContexts(InteractionContextType.Guild);
  for (const board of BOARDS) {
    data.addSubcommand((sub) =>
      sub
        .setName(board.name)
        .setDescription(board.description)
        .addStringOption(periodOption)
        .addRoleOption((option) => option.setName('role').setDescription('Only members of this role')),
    );
  }
  return {
    data,
    async execute(interaction, ctx) {
      const guildId = await requireRecordReader(interaction, ctx.community);
      const board = interaction.options.getSubcommand(true) as Board;
      const period = chosenPeriod(interaction.options.getString('period'));
      const range = periodRange(period, ctx.clock());
      const role = interaction.options.getRole('role');
      // Looking members up for a role, or the chart (its process starts at the first one), may take a moment:
      // Discord wants an answer within 3 s.
      await interaction.deferReply({ flags: MessageFlags.Ephemeral });
      const standings = await ctx.community.leaderboard(guildId, board, range);
      let shown = standings.slice(0, LEADERBOARD_SHOWN);
      let cut = false;
      if (role) {
        if (!interaction.guild) throw new UserFacingError('The bot cannot see this server yet: try again in a minute.');
        ({ shown, cut } = await standingsWithRole(interaction.guild, standings, role.id, LEADERBOARD_SHOWN));
      }
      const embed = describeLeaderboard(
        board,
        range.label,
        shown,
        { memberId: interaction.user.id, standings },
        role?.id ?? null,
      );
      if (cut) embed.footer = { text: 'Members of the role among the first 100 only' };
      // The same places as bars; a member the service names nobody (modcalls) by their name in the server.
      const named = shown.map((standing) => ({
        ...standing,
        name: standing.name ?? interaction.guild?.members.cache.get(standing.memberId)?.displayName ?? null,
      }));
      const chart = await leaderboardChartFile(ctx.charts, named, board);
      const files = chart
        ? [new AttachmentBuilder(chart.png, { name: chart.name, description: chart.description })]
        : [];
      if (chart) embed.image = { url: `attachment://${chart.name}` };
      await interaction.editReply({ embeds: [embed], files, allowedMentions: NO_MENTIONS });
    },
    readOnly: () => true,
  };
})();
