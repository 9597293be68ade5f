import type { APIInteractionGuildMember, GuildMember } from 'discord.js';

import { isAdmin, type AdminCheckable } from '../../../discord/require-admin.js';

/** Who clicks a request's button: where, with which permissions and roles (as Discord sent them at the click). */
export interface ManagerCheckable extends AdminCheckable {
  member: GuildMember | APIInteractionGuildMember | null;
}

/**
 * Whether the member may approve and deny leave: members of the leave managers' role, and members with Manage
 * Server. Read from the click itself (Discord sends the member's roles and permissions with each), so a role taken
 * away is felt at the next click.
 */
export function isLeaveManager(interaction: ManagerCheckable, managerRoleId: string | null): boolean {
  if (isAdmin(interaction)) return true;
  const member = interaction.member;
  if (managerRoleId === null || !member) return false;
  return Array.isArray(member.roles) ? member.roles.includes(managerRoleId) : member.roles.cache.has(managerRoleId);
}
