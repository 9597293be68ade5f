import type { APIInteractionGuildMember, GuildMember } from 'discord.js';

import { UserFacingError } from '../../base/errors.js';
import { isAdmin, type AdminCheckable } from '../../discord/require-admin.js';
import type { CommunityRecord } from './store/community-record.js';

/** The parts of an interaction that say who asks, and where. */
export interface RecordReaderCheckable extends AdminCheckable {
  member: GuildMember | APIInteractionGuildMember | null;
}

/**
 * Who may read the community record (lookups, statistics): members with Manage Server, and members of the staff
 * role an admin set with /record staff-role. The commands are visible to everyone, so this is the check.
 * @returns the guild id
 * @throws UserFacingError outside a server, or for anyone else
 */
export async function requireRecordReader(
  interaction: RecordReaderCheckable,
  community: Pick<CommunityRecord, 'settingsOf'>,
): Promise<string> {
  const { guildId } = interaction;
  if (!guildId) throw new UserFacingError('Use this command in a server, not in direct messages.');
  if (isAdmin(interaction)) return guildId;
  const { staffRoleId } = await community.settingsOf(guildId);
  if (staffRoleId !== null && hasRole(interaction.member, staffRoleId)) return guildId;
  throw new UserFacingError(
    staffRoleId === null
      ? "You need the Manage Server permission to read this server's record (an admin can let a staff role read it with /record staff-role)."
      : `You need the Manage Server permission or the <@&${staffRoleId}> role to read this server's record.`,
  );
}

function hasRole(member: RecordReaderCheckable['member'], roleId: string): boolean {
  if (!member) return false;
  // An interaction's member is a cached GuildMember, or the raw member Discord sent (roles as ids).
  return Array.isArray(member.roles) ? member.roles.includes(roleId) : member.roles.cache.has(roleId);
}
