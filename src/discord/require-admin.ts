import { PermissionFlagsBits, type PermissionsBitField } from 'discord.js';

import { UserFacingError } from '../base/errors.js';

/** The parts of an interaction that say where it came from and who may use it. */
export interface AdminCheckable {
  guildId: string | null;
  memberPermissions: Readonly<PermissionsBitField> | null;
}

/**
 * Re-checks what the command's definition already asks Discord to enforce: a server can override a command's
 * default permissions for roles or members, and only Manage Server may change the feed or see its webhooks.
 * @returns the guild id
 * @throws UserFacingError outside a server or without Manage Server
 */
export function requireAdmin(interaction: AdminCheckable): string {
  if (!interaction.guildId) throw new UserFacingError('Use this command in a server, not in direct messages.');
  if (!isAdmin(interaction)) throw new UserFacingError('You need the Manage Server permission to use this command.');
  return interaction.guildId;
}

/** True in a server for members with Manage Server. */
export function isAdmin(interaction: AdminCheckable): boolean {
  return interaction.guildId !== null && interaction.memberPermissions?.has(PermissionFlagsBits.ManageGuild) === true;
}
