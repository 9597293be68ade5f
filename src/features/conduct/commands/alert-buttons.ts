import { GuildMemberRoleManager, type ButtonInteraction } from 'discord.js';

import { UserFacingError } from '../../../base/errors.js';
import type { ButtonHandler } from '../../../discord/command.js';
import { replyEphemeral } from '../../../discord/reply.js';
import { isAdmin } from '../../../discord/require-admin.js';
import { CONDUCT_ALERT_BUTTON } from '../render-conduct-alert.js';
import type { ConductCommandDeps } from './conduct.js';

/**
 * Acknowledge or Dismiss on a conduct alert (`conduct:alert:<ack|dismiss>:<finding id>`). Anyone who sees the
 * alert can click, so who may answer is checked at the click, from the settings and the member's roles as they are
 * then: the role chosen with /conduct role (Manage Server while none is), and never the member the alert is about.
 * The answer is stored, then the alert edited by its sync; the audit log records the click, refused or not.
 */
export const conductAlertButton: ButtonHandler<ConductCommandDeps> = {
  id: CONDUCT_ALERT_BUTTON,
  command: 'conduct',

  async run(interaction, ctx, args) {
    const guildId = interaction.guildId;
    if (!guildId) throw new UserFacingError('Conduct alerts work in servers only.');
    const [action = '', findingId = ''] = args.split(':');
    if (action !== 'ack' && action !== 'dismiss') throw new Error(`unknown conduct alert button ${action}`);
    const { roleId } = await ctx.conduct.settingsOf(guildId);
    if (!mayAnswer(interaction, roleId)) {
      throw new UserFacingError(
        roleId === null
          ? 'Only members with Manage Server can answer conduct alerts (an admin can choose a role with /conduct role).'
          : `Only members with <@&${roleId}> can answer conduct alerts.`,
      );
    }
    // A custom id can be forged: the finding is looked up in this server only.
    const finding = await ctx.conduct.finding(guildId, findingId);
    if (!finding) throw new UserFacingError('This alert is no longer kept.');
    if (finding.subject === interaction.user.id) {
      throw new UserFacingError('This alert is about you: another member of the role answers it.');
    }
    const state = action === 'ack' ? 'acknowledged' : 'dismissed';
    const answered = await ctx.conduct.act(guildId, findingId, state, interaction.user.id, ctx.clock());
    if (!answered) throw new UserFacingError('This alert was withdrawn or merged into another: nothing to answer.');
    ctx.alertsChanged();
    await replyEphemeral(interaction, `${state === 'acknowledged' ? 'Acknowledged' : 'Dismissed'}: the alert says so.`);
  },
};

/** The chosen role's members, or (while none is chosen) Manage Server; read from the click itself. */
function mayAnswer(interaction: ButtonInteraction, roleId: string | null): boolean {
  if (roleId === null) return isAdmin(interaction);
  const roles = interaction.member?.roles;
  if (!roles) return false;
  // A member from the gateway's cache has a role manager; one from the interaction's payload, a list of ids.
  return roles instanceof GuildMemberRoleManager ? roles.cache.has(roleId) : roles.includes(roleId);
}
