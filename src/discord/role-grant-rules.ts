import { PermissionFlagsBits, type Guild, type GuildMember, type Role } from 'discord.js';

/**
 * The permissions a role the bot gives on its own (the on-duty role; later leave and rank roles) must not carry,
 * as Discord's role settings name them: each lets its holder take over the server, its members or its pings. The
 * bot gives such roles to whoever the service names, unattended; an admin gives these by hand.
 */
export const DANGEROUS_ROLE_PERMISSIONS: ReadonlyArray<readonly [name: string, bit: bigint]> = [
  ['Administrator', PermissionFlagsBits.Administrator],
  ['Manage Server', PermissionFlagsBits.ManageGuild],
  ['Manage Roles', PermissionFlagsBits.ManageRoles],
  ['Manage Channels', PermissionFlagsBits.ManageChannels],
  ['Manage Webhooks', PermissionFlagsBits.ManageWebhooks],
  ['Ban Members', PermissionFlagsBits.BanMembers],
  ['Kick Members', PermissionFlagsBits.KickMembers],
  ['Mention @everyone, @here and All Roles', PermissionFlagsBits.MentionEveryone],
];

/** What a role the bot gives is for, in words: `on-duty role`. */
export type RoleUse = string;

/**
 * Who the bot gives a role for: the member who chose it. `addressed` when they are the one reading the refusal
 * (the command's reply says "you"); otherwise they are named (a health alert, long after they chose it).
 */
export interface RoleManager {
  id: string;
  /** Their member now; null when they are no longer in the server. */
  member: GuildMember | null;
  addressed: boolean;
}

/**
 * May the bot give this role at all, whoever asked? Not @everyone, not a role an integration manages, not a role
 * carrying a {@link DANGEROUS_ROLE_PERMISSIONS} permission, and only with Manage Roles and below the bot's highest
 * role (Discord's own rule for the bot). Null when it may; else why not, in plain words, with what to do.
 */
export function refuseRoleForBot(role: Role, me: GuildMember, use: RoleUse): string | null {
  if (role.id === role.guild.id) return `@everyone cannot be ${withArticle(use)}: choose a role of its own.`;
  if (role.managed) {
    return `<@&${role.id}> is managed by an integration: Discord lets nobody give it. Choose another role.`;
  }
  const dangerous = dangerousPermissionsOf(role);
  if (dangerous.length > 0) {
    return (
      `<@&${role.id}> carries ${listWords(dangerous)}: the bot gives no role that does, since it hands roles out on ` +
      `its own. Take ${dangerous.length === 1 ? 'it' : 'them'} off the role in Server Settings → Roles, or choose ` +
      'another role.'
    );
  }
  if (!me.permissions.has(PermissionFlagsBits.ManageRoles)) {
    return `I need the Manage Roles permission to give the ${use}: grant it to my role in Server Settings → Roles, then try again.`;
  }
  if (role.comparePositionTo(me.roles.highest) >= 0) {
    return (
      `<@&${role.id}> is not below my highest role (<@&${me.roles.highest.id}>), so Discord will not let me give it: ` +
      'drag my role above it in Server Settings → Roles, or choose a lower role.'
    );
  }
  return null;
}

/**
 * May the bot give this role for `manager`? Only what Discord would let them give themselves: they hold Manage
 * Roles and the role is below their highest role; the server's owner may give any. Null when they may; else why
 * not, in plain words.
 */
export function refuseRoleForManager(role: Role, manager: RoleManager, use: RoleUse): string | null {
  const { member } = manager;
  if (member === null) {
    return `<@${manager.id}>, who chose the ${use}, is no longer a member of this server: an admin who may give it chooses it again with the command.`;
  }
  if (isOwner(role.guild, member)) return null;
  if (!member.permissions.has(PermissionFlagsBits.ManageRoles)) {
    return manager.addressed
      ? `You need the Manage Roles permission to choose the ${use}: the bot gives only a role you could give yourself.`
      : `<@${member.id}>, who chose the ${use}, no longer has the Manage Roles permission: the bot gives only a role they could give themselves.`;
  }
  const highest = member.roles.highest;
  if (role.comparePositionTo(highest) >= 0) {
    return manager.addressed
      ? `<@&${role.id}> is not below your highest role (<@&${highest.id}>), so Discord would not let you give it ` +
          'yourself: choose a lower role.'
      : `<@&${role.id}> is no longer below the highest role (<@&${highest.id}>) of <@${member.id}>, who chose the ` +
          `${use}: the bot gives only a role they could give themselves.`;
  }
  return null;
}

/**
 * Both rules: for the manager (when the role's chooser is known), then for the bot; the manager's first, since
 * they can fix the bot's role but not their own rights. Null when the bot may give it; else the first refusal.
 */
export function refuseRoleGrant(role: Role, me: GuildMember, manager: RoleManager | null, use: RoleUse): string | null {
  return (manager === null ? null : refuseRoleForManager(role, manager, use)) ?? refuseRoleForBot(role, me, use);
}

/** The dangerous permissions the role itself grants (Administrator is named alone, not as every permission). */
export function dangerousPermissionsOf(role: Role): string[] {
  return DANGEROUS_ROLE_PERMISSIONS.filter(([, bit]) => role.permissions.has(bit, false)).map(([name]) => name);
}

function isOwner(guild: Guild, member: GuildMember): boolean {
  return guild.ownerId === member.id;
}

function withArticle(noun: string): string {
  return `${/^[aeiou]/i.test(noun) ? 'an' : 'a'} ${noun}`;
}

function listWords(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words.at(-1) ?? ''}`;
}
