import { InteractionContextType, PermissionFlagsBits, SlashCommandBuilder, time, TimestampStyles } from 'discord.js';

import { fitLines, truncateText } from '../../../base/truncate-text.js';
import type { Command, CommandBasics } from '../../../discord/command.js';
import { deferEphemeral } from '../../../discord/reply.js';
import { requireAdmin } from '../../../discord/require-admin.js';
import { FORMER_MEMBER } from '../../../store/person-rows.js';
import type { AuditDeps } from '../feature.js';
import { AUDIT_KINDS, BOT_USER_ID, type AuditEntry, type AuditKind } from '../store/audit-log.js';
import { FORMER_USER_ID } from '../store/audit-person-rows.js';

/** What /audit is given: its feature's dependencies, no more. */
export type AuditCommandDeps = CommandBasics & AuditDeps;

/** The entries /audit shows. */
export const AUDIT_SHOWN = 25;
/** An embed description's limit. */
const MAX_DESCRIPTION = 4096;

/** What `/audit kind:` offers, as a choice's name. */
const KIND_NAMES: Record<AuditKind, string> = {
  action: 'admin actions',
  lookup: 'lookups (who looked whom up)',
  forget: 'people forgotten',
};

/** /audit [kind:]: the server's last 25 audit lines (admin actions, lookups, people forgotten), newest first. */
export const auditCommand: Command<AuditCommandDeps> = {
  data: new SlashCommandBuilder()
    .setName('audit')
    .setDescription('The last 25 admin actions and lookups in this server: who, what, when, result')
    .setDefaultMemberPermissions(PermissionFlagsBits.ManageGuild)
    .setContexts(InteractionContextType.Guild)
    .addStringOption((option) =>
      option
        .setName('kind')
        .setDescription('Only this kind (every kind unless chosen)')
        .addChoices(...AUDIT_KINDS.map((kind) => ({ name: KIND_NAMES[kind], value: kind }))),
    ),

  async execute(interaction, ctx) {
    const guildId = requireAdmin(interaction);
    await deferEphemeral(interaction);
    const kind = chosenKind(interaction.options.getString('kind'));
    const entries = await ctx.audit.latest(guildId, AUDIT_SHOWN, kind);
    if (entries.length === 0) {
      const content = kind ? `No ${KIND_NAMES[kind]} recorded yet.` : 'No admin actions recorded yet.';
      await interaction.editReply({ content, allowedMentions: { parse: [] } });
      return;
    }
    const title = kind
      ? `Last ${entries.length} ${KIND_NAMES[kind]}, newest first`
      : `Last ${entries.length} admin actions and lookups, newest first`;
    await interaction.editReply({
      embeds: [{ title, description: describeEntries(entries) }],
      allowedMentions: { parse: [] },
    });
  },

  readOnly: () => true,
};

/** The kind chosen; Discord sends only the choices, so anything else is every kind. */
function chosenKind(value: string | null): AuditKind | undefined {
  return AUDIT_KINDS.find((kind) => kind === value);
}

/** One line per entry, as many as fit an embed; the rest counted. */
export function describeEntries(entries: readonly AuditEntry[]): string {
  return fitLines(entries.map(describeEntry), MAX_DESCRIPTION, (left) => `…and ${left} older`);
}

function describeEntry(entry: AuditEntry): string {
  const when = time(Math.floor(entry.at / 1000), TimestampStyles.ShortDateTime);
  const result = entry.detail ? `${entry.result}: ${truncateText(entry.detail, 80)}` : entry.result;
  const who =
    entry.userId === BOT_USER_ID ? 'the bot' : entry.userId === FORMER_USER_ID ? FORMER_MEMBER : `<@${entry.userId}>`;
  return `${when} ${who} ${truncateText(entry.action, 100)} → ${result}`;
}
