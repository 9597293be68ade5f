import {
  DiscordAPIError,
  RESTJSONErrorCodes,
  type ChatInputCommandInteraction,
  type Client,
  type GuildMember,
} from 'discord.js';

import { UserFacingError } from '../base/errors.js';
import { deferEphemeral } from './reply.js';
import { refuseRoleGrant, type RoleUse } from './role-grant-rules.js';

/** Who chose the role, as {@link checkRoleGrant} is told: their id, and whether they read the answer. */
export interface RoleChooser {
  id: string;
  addressed: boolean;
}

/**
 * Whether the bot may give the role now ({@link refuseRoleGrant}), from what Discord says now rather than from
 * the gateway's cache: the guild's roles (their permissions and order), the bot's member and the chooser's are
 * fetched, since a role can gain a permission, and a member lose one, between the choice and a grant. Null when it
 * may; else why not, in plain words. A role that no longer exists is a refusal too.
 * @param chooser who chose the role (null: not known, for a role chosen before it was kept)
 * @throws what Discord answered when it could not be asked (the caller tries again later)
 */
export async function checkRoleGrant(
  client: Client,
  guildId: string,
  roleId: string,
  chooser: RoleChooser | null,
  use: RoleUse,
): Promise<string | null> {
  const guild = client.guilds.cache.get(guildId) ?? (await client.guilds.fetch(guildId));
  // Every role at once: the members' highest roles are compared in the same, fresh, order.
  const roles = await guild.roles.fetch();
  const role = roles.get(roleId);
  if (!role) return `The ${use} (<@&${roleId}>) no longer exists in this server: choose another one with the command.`;
  const me = await guild.members.fetchMe({ force: true });
  const member =
    chooser === null ? null : await fetchMemberOrNull(() => guild.members.fetch({ user: chooser.id, force: true }));
  return refuseRoleGrant(role, me, chooser === null ? null : { ...chooser, member }, use);
}

/**
 * For a command where a member chooses a role the bot will give (/duty role, /leave role): Discord's rules for the
 * bot and for the member alike, never a role they could not give themselves. The answer is deferred first, ephemeral:
 * three reads from Discord may outlast the 3 s an interaction has to be answered.
 * @throws UserFacingError with the refusal in plain words; nothing is to be saved then
 */
export async function requireGrantableRole(
  interaction: ChatInputCommandInteraction,
  client: Client,
  guildId: string,
  roleId: string,
  use: RoleUse,
): Promise<void> {
  await deferEphemeral(interaction);
  const refusal = await checkRoleGrant(client, guildId, roleId, { id: interaction.user.id, addressed: true }, use);
  if (refusal !== null) throw new UserFacingError(refusal);
}

async function fetchMemberOrNull(fetch: () => Promise<GuildMember>): Promise<GuildMember | null> {
  try {
    return await fetch();
  } catch (error) {
    if (error instanceof DiscordAPIError && error.code === RESTJSONErrorCodes.UnknownMember) return null;
    throw error;
  }
}
