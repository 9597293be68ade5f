import { InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import { truncateText } from '../../../base/truncate-text.js';
import type { ButtonHandler, Command, CommandBasics } from '../../../discord/command.js';
import { auditLookup, playerSubject } from '../audit-lookup.js';
import { CASE_PAGE_BUTTON, readCasePageArgs, renderCaseLookup } from '../case-lookup.js';
import type { RecordDeps } from '../feature.js';
import { requireRecordReader } from '../record-access.js';
import { answerCaseEvidence } from './case/evidence.js';

/** What /case is given. */
export type CaseCommandDeps = CommandBasics & RecordDeps;

/** Discord shows at most 25 suggestions, each named and valued in at most 100 characters. */
const MAX_CHOICES = 25;
const MAX_CHOICE = 100;
const NO_MENTIONS = { parse: [] };
/** A game server's id as the routing rules take it (/feed set server:). */
const MAX_SERVER = 20;

/**
 * /case lookup player: [page:]: a player's cases in this server's record, newest first, with their totals.
 * /case evidence number: [server:]: one case's evidence pack (case/evidence.ts). Open to everyone in the command
 * list; answered to admins and the staff role (/record staff-role), ephemerally.
 */
export const caseCommand: Command<CaseCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('case')
    .setDescription("Cases in this server's record")
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('lookup')
        .setDescription("A player's cases, newest first")
        .addStringOption((option) =>
          option
            .setName('player')
            .setDescription('Roblox name or id')
            .setRequired(true)
            .setMaxLength(MAX_CHOICE)
            .setAutocomplete(true),
        )
        .addIntegerOption((option) =>
          option.setName('page').setDescription('Which page (10 cases each)').setMinValue(1),
        ),
    )
    .addSubcommand((sub) =>
      sub
        .setName('evidence')
        .setDescription('Everything the record knows around a case, with a file that keeps it')
        .addIntegerOption((option) =>
          option.setName('number').setDescription("The case's number").setRequired(true).setMinValue(0),
        )
        .addStringOption((option) =>
          option
            .setName('server')
            .setDescription('Its game server (its id), where several have a case of that number')
            .setMaxLength(MAX_SERVER),
        ),
    ),

  async execute(interaction, ctx) {
    if (interaction.options.getSubcommand(true) === 'evidence') return answerCaseEvidence(interaction, ctx);
    const guildId = await requireRecordReader(interaction, ctx.community);
    const typed = interaction.options.getString('player', true).trim();
    const player = await ctx.community.findPlayer(guildId, typed);
    if (!player) {
      throw new UserFacingError(
        `No player named or numbered “${truncateText(typed, 100)}” has a case in this server's record.`,
      );
    }
    const page = await renderCaseLookup(ctx.community, guildId, player, interaction.options.getInteger('page') ?? 1);
    await auditLookup(
      ctx.audit,
      { guildId, userId: interaction.user.id },
      ctx.clock(),
      `/case lookup player:${player.name} (${player.playerId})`,
      playerSubject(player.playerId),
    );
    await interaction.reply({ ...page, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
  },

  async autocomplete(interaction, ctx) {
    const { guildId } = interaction;
    // Suggestions are the record too: nobody who may not read it sees them.
    const allowed = guildId
      ? await requireRecordReader(interaction, ctx.community).then(
          () => true,
          () => false,
        )
      : false;
    if (!guildId || !allowed) {
      await interaction.respond([]);
      return;
    }
    const typed = interaction.options.getFocused().trim();
    const players = await ctx.community.findPlayers(guildId, typed, MAX_CHOICES);
    await interaction.respond(
      players.map((player) => ({
        name: truncateText(`${player.name} (${player.playerId})`, MAX_CHOICE),
        value: player.playerId,
      })),
    );
  },

  // Its line is written by execute, naming the player found (the lookup's audit line), not by the dispatcher.
  readOnly: () => true,
};

/** Newer and Older on a lookup: anyone who sees the buttons can click them, so the reader is checked again. */
export const casePageButton: ButtonHandler<CaseCommandDeps> = {
  id: CASE_PAGE_BUTTON,
  command: 'case',

  async run(interaction, ctx, args) {
    const guildId = await requireRecordReader(interaction, ctx.community);
    const { playerId, page } = readCasePageArgs(args);
    const player = await ctx.community.findPlayer(guildId, playerId);
    if (!player) throw new UserFacingError("That player's cases are no longer in this server's record.");
    await interaction.update({
      ...(await renderCaseLookup(ctx.community, guildId, player, page)),
      allowedMentions: NO_MENTIONS,
    });
  },

  readOnly: () => true,
};
