import { AttachmentBuilder, InteractionContextType, MessageFlags, SlashCommandBuilder } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { ButtonHandler, Command, CommandBasics } from '../../../discord/command.js';
import { toLoggableError } from '../../../discord/log-error.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { auditLookup, memberSubject } from '../audit-lookup.js';
import type { RecordDeps } from '../feature.js';
import {
  choosePerson,
  describeCounts,
  describeForgetting,
  describePerson,
  FORGET_BUTTON,
  forgetConfirmation,
  readForgetArgs,
  totalOf,
} from '../forget-person.js';
import { describeKeptAbout } from '../kept-about-member.js';
import { redactPostedCards } from '../redact-posted-cards.js';
import { MAX_RECORD_RETENTION_DAYS } from '../store/community-record.js';

/** What /record is given. */
export type RecordCommandDeps = CommandBasics & RecordDeps;

const NO_MENTIONS = { parse: [] };

/**
 * /record retention|staff-role|forget (Manage Server) and /record mine (every member). Discord's default
 * permission applies to a whole command, so /record has none (every member sees it, for `mine`), and each admin
 * subcommand checks Manage Server itself, here and at every click of forget's buttons.
 */
export const recordCommand: Command<RecordCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('record')
    .setDescription("This server's record of cases, shifts, sessions and modcalls")
    .setContexts(InteractionContextType.Guild)
    .addSubcommand((sub) =>
      sub
        .setName('retention')
        .setDescription('How long the record is kept (400 days unless set) (Manage Server)')
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
        .setDescription('Let a role read the record (/case lookup); leave empty for admins only (Manage Server)')
        .addRoleOption((option) => option.setName('role').setDescription('The staff role')),
    )
    .addSubcommand((sub) =>
      sub.setName('mine').setDescription('What the bot keeps about your own Discord account here, as a CSV file'),
    )
    .addSubcommand((sub) =>
      sub
        .setName('forget')
        .setDescription('Delete what the bot keeps about one person in this server (Manage Server)')
        .addStringOption((option) => option.setName('player').setDescription('A Roblox name or id').setMaxLength(100))
        .addUserOption((option) => option.setName('member').setDescription('A Discord member')),
    ),

  async execute(interaction, ctx) {
    const subcommand = interaction.options.getSubcommand(true);
    switch (subcommand) {
      case 'retention': {
        const guildId = requireAdmin(interaction);
        const days = interaction.options.getInteger('days', true);
        await ctx.community.setRetentionDays(guildId, days);
        return replyEphemeral(
          interaction,
          `This server's record is now kept ${days} ${days === 1 ? 'day' : 'days'}: anything older goes at the next hourly sweep.`,
        );
      }
      case 'staff-role': {
        const guildId = requireAdmin(interaction);
        const role = interaction.options.getRole('role');
        await ctx.community.setStaffRole(guildId, role?.id ?? null);
        return replyEphemeral(
          interaction,
          role
            ? `Members of <@&${role.id}> may now read this server's record (/case lookup), as admins may.`
            : "Only members with Manage Server may read this server's record now.",
        );
      }
      case 'mine': {
        const { guildId } = interaction;
        if (!guildId) throw new UserFacingError('Use this command in a server, not in direct messages.');
        const userId = interaction.user.id;
        await interaction.deferReply({ flags: MessageFlags.Ephemeral });
        const kept = await ctx.people.keptAbout({ guildId, kind: 'member', id: userId });
        await auditLookup(ctx.audit, { guildId, userId }, ctx.clock(), '/record mine', memberSubject(userId));
        const answer = describeKeptAbout(kept);
        const files = answer.csv ? [new AttachmentBuilder(Buffer.from(answer.csv, 'utf8'), { name: 'mine.csv' })] : [];
        await interaction.editReply({ content: answer.summary, files, allowedMentions: NO_MENTIONS });
        return;
      }
      case 'forget': {
        const guildId = requireAdmin(interaction);
        const person = await choosePerson(
          guildId,
          interaction.options.getString('player'),
          interaction.options.getUser('member')?.id ?? null,
          (guild, typed) => ctx.community.findPlayer(guild, typed),
        );
        const counts = await ctx.people.count(person);
        if (counts.length === 0) {
          return replyEphemeral(interaction, `The bot keeps nothing that names ${describePerson(person)} here.`);
        }
        const cards = await ctx.people.postedCards(person);
        await interaction.reply({
          ...forgetConfirmation(person, counts, cards.length),
          flags: MessageFlags.Ephemeral,
          allowedMentions: NO_MENTIONS,
        });
        return;
      }
      default:
        throw new Error(`unknown /record subcommand ${subcommand}`);
    }
  },

  // mine writes its own line (a lookup about the member), forget's confirmation changes nothing (its button writes
  // the line, never naming whom); the others are admin actions.
  readOnly: (subcommand) => subcommand === 'mine' || subcommand === 'forget',
};

/**
 * Forget and Cancel under a forgetting's confirmation. Anyone who sees the message could click, and permissions
 * change: Manage Server is checked again at the click, then the person is forgotten in one transaction and the
 * audit log says a player or member was forgotten, by whom, and how many rows, never who.
 */
export const forgetButton: ButtonHandler<RecordCommandDeps> = {
  id: FORGET_BUTTON,
  command: 'record',

  async run(interaction, ctx, args) {
    const guildId = requireAdmin(interaction);
    const { choice, kind, id } = readForgetArgs(args);
    if (choice === 'cancel') {
      await interaction.update({ content: 'Nothing was forgotten.', embeds: [], components: [] });
      return;
    }
    // The name, while the record still has it: bodies and documents name a player by it too.
    const player = kind === 'player' ? await ctx.community.findPlayer(guildId, id) : undefined;
    const person = { guildId, kind, id, ...(player ? { name: player.name } : {}) };
    // Read before forgetting deletes what the bot kept of its cards' embeds.
    const cards = choice === 'redact' ? await ctx.people.postedCards(person) : [];
    const forgotten = await ctx.people.forget(person);
    await ctx.audit.append({
      guildId,
      userId: interaction.user.id,
      action: describeForgetting(kind, forgotten),
      result: 'done',
      detail: null,
      at: ctx.clock(),
      kind: 'forget',
    });
    const result =
      forgotten.length === 0
        ? `Nothing named ${describePerson(person)} any more.`
        : `Forgot ${describePerson(person)}: ${totalOf(forgotten).toLocaleString('en-US')} rows.\n${describeCounts(forgotten)}`;
    const show = (progress: string) =>
      interaction.editReply({
        content: `${result}${progress}`,
        embeds: [],
        components: [],
        allowedMentions: NO_MENTIONS,
      });
    await interaction.update({ content: result, embeds: [], components: [], allowedMentions: NO_MENTIONS });
    if (cards.length === 0) return;
    const done = await redactPostedCards(
      ctx.poster,
      cards,
      person,
      (so) => show(`\nRedacting posted cards: ${so.edited + so.failed} of ${so.total}…`).then(() => undefined),
      (card, error) =>
        ctx.logger.warn(
          { guildId, channelId: card.channelId, messageId: card.messageId, err: toLoggableError(error) },
          'a posted card could not be redacted',
        ),
    );
    await show(
      `\nRedacted ${done.edited} of ${done.total} posted cards` +
        (done.failed > 0 ? ` (${done.failed} deleted meanwhile or refused by Discord: edit them by hand).` : '.'),
    );
  },

  // It writes its own line (kind forget), without whom.
  readOnly: () => true,
};
