import {
  AttachmentBuilder,
  InteractionContextType,
  MessageFlags,
  PermissionFlagsBits,
  SlashCommandBuilder,
  type ChatInputCommandInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { deferEphemeral, replyEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { exportLines, groupIntoMessages, writeExportFiles, type ExportPart } from '../export-record.js';
import { chosenPeriod, periodOption, periodRange, type Period } from '../periods.js';
import { EXPORT_KINDS, type ExportKind, type RecordExport } from '../store/record-export.js';

/** What /export is given. */
export interface ExportCommandDeps extends CommandBasics {
  community: Pick<RecordExport, 'exportPage'>;
}

const MIB = 1024 * 1024;
/** Discord's limit on a bot's files where a server has no boost (the interaction says the real one). */
const DEFAULT_ATTACHMENT_BYTES = 10 * MIB;
/**
 * The most one file of an export holds, and the most one message carries, even where a boosted server allows
 * more: discord.js reads every file of a message into memory (and copies it into the form it sends). Well within
 * the 25 MB Discord takes in one request, too.
 */
const MAX_MESSAGE_BYTES = 10 * MIB;
/** Discord's limit of files on one message. */
const FILES_PER_MESSAGE = 10;
/** The most files one export takes; beyond that, a shorter period. */
export const MAX_EXPORT_FILES = 10;

const NO_MENTIONS = { parse: [] };

function isExportKind(value: string): value is ExportKind {
  return (EXPORT_KINDS as readonly string[]).includes(value);
}

/** "this month", "in the last 30 days", "in the record": after "No cases". */
function describePeriod(period: Period, label: string): string {
  if (period === '30-days') return `in ${label}`;
  if (period === 'all') return 'in the record';
  return label;
}

/** 10 MiB, 8.5 MiB, 600 bytes. */
function describeBytes(bytes: number): string {
  if (bytes >= MIB) return `${Number((bytes / MIB).toFixed(1))} MiB`;
  if (bytes >= 1024) return `${Number((bytes / 1024).toFixed(1))} KiB`;
  return `${bytes} bytes`;
}

function describeParts(parts: readonly ExportPart[]): string {
  const [first] = parts;
  const last = parts[parts.length - 1];
  if (parts.length === 1 || !first || !last) return first?.name ?? '';
  return `${parts.length} files (${first.name} to ${last.name}), each with the header row`;
}

/** /export kind: [period:]: a kind of the community record's rows in a period, as CSV files. */
export const exportCommand: Command<ExportCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('export')
    .setDescription("This server's record as a CSV file (cases, shifts, sessions or modcalls)")
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addStringOption((option) =>
      option
        .setName('kind')
        .setDescription('What to export')
        .setRequired(true)
        .addChoices(...EXPORT_KINDS.map((kind) => ({ name: kind, value: kind }))),
    )
    .addStringOption(periodOption),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    const kind = interaction.options.getString('kind', true);
    if (!isExportKind(kind))
      throw new UserFacingError(`There is no export of ${kind}: choose ${EXPORT_KINDS.join(', ')}.`);
    const period = chosenPeriod(interaction.options.getString('period'));
    const range = periodRange(period, ctx.clock());
    const when = describePeriod(period, range.label);
    // A big period takes longer than Discord's 3 s for a first answer.
    await deferEphemeral(interaction);

    const partBytes = Math.min(interaction.attachmentSizeLimit || DEFAULT_ATTACHMENT_BYTES, MAX_MESSAGE_BYTES);
    const lines = exportLines(ctx.community, kind, guildId, range);
    const files = await writeExportFiles(lines, kind, { partBytes, maxParts: MAX_EXPORT_FILES });
    if (files.outcome === 'empty') return replyEphemeral(interaction, `No ${kind} ${when}.`);
    if (files.outcome === 'too-big') {
      return replyEphemeral(
        interaction,
        `The ${kind} ${when} do not fit in ${MAX_EXPORT_FILES} files of ${describeBytes(partBytes)} ` +
          '(the most the bot puts in one file in this server), so nothing was sent. Export a shorter period, ' +
          'such as `period:this-week` or `period:today`.',
      );
    }
    try {
      await sendParts(
        interaction,
        files.parts,
        `${kind} ${when}: ${files.rows.toLocaleString('en-US')} ${files.rows === 1 ? 'row' : 'rows'}`,
      );
    } finally {
      await files.dispose();
    }
  },

  // Everyone's rows of a kind: a lookup of nobody in particular, recorded by the dispatcher, refusals too.
  lookup: () => true,
};

/** The export's files in the deferred reply, and follow-ups for what does not fit one message. */
async function sendParts(
  interaction: ChatInputCommandInteraction,
  parts: readonly ExportPart[],
  summary: string,
): Promise<void> {
  const messages = groupIntoMessages(parts, FILES_PER_MESSAGE, MAX_MESSAGE_BYTES);
  const heading = `${summary[0]?.toUpperCase() ?? ''}${summary.slice(1)} in ${describeParts(parts)}. Ids are text (open those columns as text in a spreadsheet); times are UTC.`;
  for (const [index, message] of messages.entries()) {
    const files = message.map((part) => new AttachmentBuilder(part.path, { name: part.name }));
    const content =
      index === 0 ? heading : `${message.map((part) => part.name).join(', ')} (${index + 1} of ${messages.length})`;
    if (index === 0) await interaction.editReply({ content, files, allowedMentions: NO_MENTIONS });
    else await interaction.followUp({ content, files, flags: MessageFlags.Ephemeral, allowedMentions: NO_MENTIONS });
  }
}
