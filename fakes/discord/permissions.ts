/**
 * Discord's permission arithmetic, as the real server applies it to a member in a channel.
 */
import { PermissionFlagsBits } from 'discord.js';

const P = PermissionFlagsBits;

/** Every permission bit Discord defines (what an owner or an Administrator has). */
export const ALL_PERMISSIONS = Object.values(P).reduce((all, bit) => all | bit, 0n);

/** What the bot's managed role grants unless a guild says otherwise: what its invite asks for. */
export const DEFAULT_BOT_PERMISSIONS =
  P.ViewChannel |
  P.SendMessages |
  P.EmbedLinks |
  P.ReadMessageHistory |
  P.AttachFiles |
  P.CreatePublicThreads |
  P.SendMessagesInThreads;

/** What an ordinary member of the fake's guilds may do (through the guild's "Staff" role). */
export const MEMBER_PERMISSIONS =
  P.ViewChannel | P.SendMessages | P.ReadMessageHistory | P.EmbedLinks | P.AddReactions | P.UseApplicationCommands;

/** Manage Server (0x20): what the bot's admin commands require. */
export const MANAGE_GUILD = P.ManageGuild;

/** A channel permission overwrite; `type` 0 targets a role, 1 a member. */
export interface PermissionOverwrite {
  readonly id: string;
  readonly type: 0 | 1;
  readonly allow: bigint;
  readonly deny: bigint;
}

/** Who asks, and where; see {@link computeChannelPermissions}. */
export interface PermissionSubject {
  readonly guildId: string;
  readonly ownerId: string;
  readonly userId: string;
  /** The member's role ids, without @everyone (whose id is the guild id). */
  readonly roleIds: readonly string[];
  /** Permissions of every role in the guild, @everyone included. */
  readonly rolePermissions: ReadonlyMap<string, bigint>;
  readonly overwrites: readonly PermissionOverwrite[];
}

/** Permissions from roles alone, before any channel overwrite. */
export function computeBasePermissions(subject: PermissionSubject): bigint {
  if (subject.userId === subject.ownerId) return ALL_PERMISSIONS;
  let permissions = subject.rolePermissions.get(subject.guildId) ?? 0n;
  for (const roleId of subject.roleIds) permissions |= subject.rolePermissions.get(roleId) ?? 0n;
  return (permissions & P.Administrator) !== 0n ? ALL_PERMISSIONS : permissions;
}

/**
 * A member's permissions in a channel, in Discord's order: roles, then the @everyone overwrite, then role
 * overwrites (all denies, then all allows), then the member's own overwrite; then the implicit rules (no View
 * Channel means nothing; no Send Messages also takes away embeds, files, TTS and mass mentions).
 */
export function computeChannelPermissions(subject: PermissionSubject): bigint {
  let permissions = computeBasePermissions(subject);
  if (permissions === ALL_PERMISSIONS) return permissions;

  const everyone = subject.overwrites.find((o) => o.id === subject.guildId);
  if (everyone) permissions = (permissions & ~everyone.deny) | everyone.allow;

  let roleDeny = 0n;
  let roleAllow = 0n;
  for (const overwrite of subject.overwrites) {
    if (overwrite.type === 0 && subject.roleIds.includes(overwrite.id)) {
      roleDeny |= overwrite.deny;
      roleAllow |= overwrite.allow;
    }
  }
  permissions = (permissions & ~roleDeny) | roleAllow;

  const member = subject.overwrites.find((o) => o.type === 1 && o.id === subject.userId);
  if (member) permissions = (permissions & ~member.deny) | member.allow;

  if ((permissions & P.ViewChannel) === 0n) return 0n;
  if ((permissions & P.SendMessages) === 0n) {
    permissions &= ~(P.MentionEveryone | P.SendTTSMessages | P.AttachFiles | P.EmbedLinks);
  }
  return permissions;
}

/** Whether `permissions` includes every bit of `required`. */
export function hasPermissions(permissions: bigint, required: bigint): boolean {
  return (permissions & required) === required;
}
