import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder, time, TimestampStyles } from 'discord.js';

import { fitLines, truncateText } from '../../../base/truncate-text.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { deferEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import type { AuditDeps } from '../feature.js';
import { BOT_USER_ID, type AuditEntry } from '../store/audit-log.js';

/** What /audit is given: its feature's dependencies, no more. */
export type AuditCommandDeps = CommandBasics & AuditDeps;

/** The entries /audit shows. */
export const AUDIT_SHOWN = 25;
/** An embed description's limit. */
const MAX_DESCRIPTION = 4096;

/** /audit: the server's last 25 admin actions, newest first. */
export const auditCommand: Command<AuditCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('audit')
    .setDescription('The last 25 admin actions in this server: who, what, when, result')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    await deferEphemeral(interaction);
    const entries = await ctx.audit.latest(guildId, AUDIT_SHOWN);
    if (entries.length === 0) {
      await interaction.editReply({ content: 'No admin actions recorded yet.', allowedMentions: { parse: [] } });
      return;
    }
    await interaction.editReply({
      embeds: [{ title: `Last ${entries.length} admin actions, newest first`, description: describeEntries(entries) }],
      allowedMentions: { parse: [] },
    });
  },

  readOnly: () => true,
};

/** One line per entry, as many as fit an embed; the rest counted. */
export function describeEntries(entries: readonly AuditEntry[]): string {
  return fitLines(entries.map(describeEntry), MAX_DESCRIPTION, (left) => `…and ${left} older`);
}

function describeEntry(entry: AuditEntry): string {
  const when = time(Math.floor(entry.at / 1000), TimestampStyles.ShortDateTime);
  const result = entry.detail ? `${entry.result}: ${truncateText(entry.detail, 80)}` : entry.result;
  const who = entry.userId === BOT_USER_ID ? 'the bot' : `<@${entry.userId}>`;
  return `${when} ${who} ${truncateText(entry.action, 100)} → ${result}`;
}
