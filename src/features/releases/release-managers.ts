import { GuildMemberRoleManager, type APIInteractionGuildMember, type GuildMember } from 'discord.js';

import { UserFacingError } from '../../base/errors.js';
import { isAdmin, type AdminCheckable } from '../../discord/require-admin.js';
import type { AppGuild } from './app-documents.js';

/** The parts of an interaction that say who acts, and with which roles. */
export interface ManagerCheckable extends AdminCheckable {
  member: GuildMember | APIInteractionGuildMember | null;
}

/** True for members with Manage Server, or with the release-manager role set by /app managers. */
export function isReleaseManager(interaction: ManagerCheckable, guild: Pick<AppGuild, 'managersRoleId'>): boolean {
  if (isAdmin(interaction)) return true;
  const roleId = guild.managersRoleId;
  if (roleId === null || interaction.member === null) return false;
  const roles = interaction.member.roles;
  return roles instanceof GuildMemberRoleManager ? roles.cache.has(roleId) : roles.includes(roleId);
}

/**
 * Refuses anyone who may not send or withdraw versions, before anything is asked of the service. Checked on
 * every click too: a preview can be clicked after a role was taken away.
 * @throws UserFacingError naming what is needed
 */
export function requireReleaseManager(interaction: ManagerCheckable, guild: AppGuild): void {
  if (isReleaseManager(interaction, guild)) return;
  throw new UserFacingError(
    guild.managersRoleId === null
      ? 'You need the Manage Server permission to send or withdraw versions (an admin can name a release-manager role with /app managers).'
      : `You need the <@&${guild.managersRoleId}> role or the Manage Server permission to send or withdraw versions.`,
  );
}
