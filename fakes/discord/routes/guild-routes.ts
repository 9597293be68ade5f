/**
 * Guild routes: a role given to or taken from a member, with Discord's rules (Manage Roles, and only a role below
 * the bot's highest, never a managed role or @everyone).
 */
import { GatewayDispatchEvents, GatewayIntentBits, PermissionFlagsBits } from 'discord.js';

import { ApiErrors } from '../api-errors.js';
import { compareRoles } from '../guild-store.js';
import { hasPermissions } from '../permissions.js';
import type { RouteDeps } from './route-deps.js';
import type { Route, RouteRequest } from './router.js';

/** `PUT` and `DELETE /guilds/:guildId/members/:userId/roles/:roleId`: 204, or Discord's error. */
export function guildRoutes(deps: RouteDeps): Route[] {
  const change =
    (give: boolean) =>
    ({ params }: RouteRequest) => {
      const guildId = params['guildId'] ?? '';
      const userId = params['userId'] ?? '';
      const roleId = params['roleId'] ?? '';
      if (!deps.guilds.guild(guildId)) throw ApiErrors.unknownGuild();
      const role = deps.guilds.role(guildId, roleId);
      if (!role) throw ApiErrors.unknownRole();
      if (!deps.guilds.member(guildId, userId)) throw ApiErrors.unknownMember();
      if (!hasPermissions(deps.guilds.guildPermissions(guildId, deps.bot.id), PermissionFlagsBits.ManageRoles)) {
        throw ApiErrors.missingPermissions();
      }
      const highest = deps.guilds.highestRole(guildId, deps.bot.id);
      // Discord refuses a role at or above the bot's highest, a managed role and @everyone alike: 50013.
      if (role.id === guildId || role.managed || !highest || compareRoles(role, highest) >= 0) {
        throw ApiErrors.missingPermissions();
      }
      if (give) deps.guilds.grantRole(guildId, userId, roleId);
      else deps.guilds.removeRole(guildId, userId, roleId);
      const member = deps.guilds.member(guildId, userId);
      deps.gateway.dispatch(
        GatewayDispatchEvents.GuildMemberUpdate,
        { ...member, guild_id: guildId },
        GatewayIntentBits.GuildMembers,
      );
      deps.onChange();
      return { status: 204 };
    };
  return [
    { method: 'PUT', path: '/guilds/:guildId/members/:userId/roles/:roleId', auth: true, handle: change(true) },
    { method: 'DELETE', path: '/guilds/:guildId/members/:userId/roles/:roleId', auth: true, handle: change(false) },
  ];
}
