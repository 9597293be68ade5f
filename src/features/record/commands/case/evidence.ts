import {
  AttachmentBuilder,
  MessageFlags,
  PermissionFlagsBits,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
} from 'discord.js';

import { UserFacingError } from '../../../../base/errors.js';
import { truncateText } from '../../../../base/truncate-text.js';
import type { ButtonHandler } from '../../../../discord/command.js';
import { evidenceFileName, renderEvidenceHtml } from '../../evidence-html.js';
import { EVIDENCE_SHARE_BUTTON, readEvidenceShareArgs, renderEvidencePack } from '../../evidence-pack.js';
import { requireRecordReader } from '../../record-access.js';
import type { CaseEvidence } from '../../store/case-evidence.js';
import type { CaseCommandDeps } from '../case.js';

const NO_MENTIONS = { parse: [] };

/**
 * What sharing a pack asks of the member in the channel: Discord would let them post it themselves only with these
 * (a message, its embeds, its file).
 */
const SHARE_PERMISSIONS = [
  { flag: PermissionFlagsBits.SendMessages, name: 'Send Messages' },
  { flag: PermissionFlagsBits.EmbedLinks, name: 'Embed Links' },
  { flag: PermissionFlagsBits.AttachFiles, name: 'Attach Files' },
] as const;

/**
 * /case evidence number: [server:]: the case's evidence pack, to the record's readers only (ephemeral), with the
 * file that keeps it and the button that shares it in the channel.
 */
export async function answerCaseEvidence(
  interaction: ChatInputCommandInteraction,
  ctx: CaseCommandDeps,
): Promise<void> {
  const guildId = await requireRecordReader(interaction, ctx.community);
  const number = interaction.options.getInteger('number', true);
  const server = interaction.options.getString('server')?.trim() || undefined;
  const evidence = await findEvidence(ctx, guildId, number, server);
  const pack = renderEvidencePack(evidence, true);
  await interaction.reply({
    ...pack,
    files: [evidenceFile(evidence, interaction, ctx)],
    flags: MessageFlags.Ephemeral,
    allowedMentions: NO_MENTIONS,
  });
}

/**
 * "Share in this channel" on a pack: posts it (and its file) in the channel for everyone there, as its reader. The
 * reader is checked again (a role may have been taken since), and so is what Discord would let them post there;
 * the pack is read again from the record, as it is now. Audited (`Share in this channel (/case button)`).
 */
export const evidenceShareButton: ButtonHandler<CaseCommandDeps> = {
  id: EVIDENCE_SHARE_BUTTON,
  command: 'case',

  async run(interaction, ctx, args) {
    const guildId = await requireRecordReader(interaction, ctx.community);
    const where = readEvidenceShareArgs(args);
    if (!where) throw new UserFacingError('That button names no case: run /case evidence again.');
    requireSharePermissions(interaction);
    const evidence = await findEvidence(ctx, guildId, where.number, where.server);
    const pack = renderEvidencePack(evidence, false);
    await interaction.reply({
      content: `Evidence pack of case #${evidence.case.number}, shared by <@${interaction.user.id}>.`,
      embeds: pack.embeds,
      files: [evidenceFile(evidence, interaction, ctx)],
      allowedMentions: NO_MENTIONS,
    });
  },
};

async function findEvidence(
  ctx: CaseCommandDeps,
  guildId: string,
  number: number,
  server: string | undefined,
): Promise<CaseEvidence> {
  const lookup = await ctx.community.caseEvidence(guildId, number, server);
  const of = server !== undefined ? ` of game server ${truncateText(server, 40)}` : '';
  if (lookup.kind === 'none') throw new UserFacingError(`No case #${number}${of} is in this server's record.`);
  if (lookup.kind === 'several') {
    throw new UserFacingError(
      `Several game servers have a case #${number} (${lookup.servers.map((found) => truncateText(found, 40)).join(', ')}): ` +
        'name one with server:.',
    );
  }
  return lookup.evidence;
}

/** The channel's permissions of the member who clicked (Discord computes them, overwrites included, for each click). */
function requireSharePermissions(interaction: ButtonInteraction): void {
  const missing = SHARE_PERMISSIONS.filter(({ flag }) => interaction.memberPermissions?.has(flag) !== true);
  if (missing.length > 0) {
    throw new UserFacingError(
      `You cannot post it here: sharing it needs ${missing.map(({ name }) => name).join(', ')} in this channel.`,
    );
  }
}

function evidenceFile(
  evidence: CaseEvidence,
  interaction: ChatInputCommandInteraction | ButtonInteraction,
  ctx: CaseCommandDeps,
): AttachmentBuilder {
  const html = renderEvidenceHtml(evidence, {
    guildId: interaction.guildId ?? '',
    guildName: interaction.guild?.name,
    madeAt: ctx.clock(),
  });
  return new AttachmentBuilder(Buffer.from(html, 'utf8'), { name: evidenceFileName(evidence.case) });
}
