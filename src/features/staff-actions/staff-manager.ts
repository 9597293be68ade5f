import {
  DiscordAPIError,
  PermissionFlagsBits,
  RESTJSONErrorCodes,
  type Client,
  type Guild,
  type GuildMember,
} from 'discord.js';

import { UserFacingError } from '../../base/errors.js';
import type { StaffSettings } from './store/staff-actions-store.js';

/** The acting manager and the member acted on, as Discord says they are now. */
export interface ActingPair {
  guild: Guild;
  manager: GuildMember;
  target: GuildMember;
}

/**
 * The member running a staff action, fetched from Discord now (not the interaction's copy, which may be minutes
 * old by the time the bot acts): they must hold the staff-manager role (/staff setup), or Manage Server.
 * @throws UserFacingError, in plain words, for anyone else
 */
export async function requireStaffManager(
  client: Client,
  guildId: string,
  userId: string,
  settings: Pick<StaffSettings, 'managerRoleId'>,
): Promise<{ guild: Guild; manager: GuildMember }> {
  const guild = client.guilds.cache.get(guildId) ?? (await client.guilds.fetch(guildId));
  const manager = await guild.members.fetch({ user: userId, force: true });
  if (manager.permissions.has(PermissionFlagsBits.ManageGuild)) return { guild, manager };
  const { managerRoleId } = settings;
  if (managerRoleId !== null && manager.roles.cache.has(managerRoleId)) return { guild, manager };
  throw new UserFacingError(
    managerRoleId === null
      ? 'You need the Manage Server permission for staff actions (an admin can let a staff-manager role act with /staff setup).'
      : `You need the <@&${managerRoleId}> role (or Manage Server) for staff actions.`,
  );
}

/**
 * The member acted on, fetched from Discord now.
 * @throws UserFacingError when they are not a member of the server
 */
export async function fetchTarget(guild: Guild, userId: string): Promise<GuildMember> {
  try {
    return await guild.members.fetch({ user: userId, force: true });
  } catch (error) {
    if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember) {
      throw new UserFacingError(`<@${userId}> is not a member of this server.`);
    }
    throw error;
  }
}

/**
 * May the manager act on the target, as Discord would let them act on the target's roles themselves? Not on
 * themselves, not on the server's owner, and only on a member whose highest role is below theirs (the owner may act
 * on anyone). Null when they may; else why not, in plain words.
 */
export function refuseTarget(pair: ActingPair): string | null {
  const { guild, manager, target } = pair;
  if (manager.id === target.id) return 'You cannot take a staff action on yourself: ask another manager.';
  if (target.id === guild.ownerId) return `<@${target.id}> owns this server: nobody can take a staff action on them.`;
  if (manager.id === guild.ownerId) return null;
  const mine = manager.roles.highest;
  const theirs = target.roles.highest;
  if (theirs.comparePositionTo(mine) >= 0) {
    return (
      `<@${target.id}>'s highest role (<@&${theirs.id}>) is not below yours (<@&${mine.id}>): Discord would not let ` +
      'you change their roles yourself, so the bot will not act on them for you.'
    );
  }
  return null;
}
