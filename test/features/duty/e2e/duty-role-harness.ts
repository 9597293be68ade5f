import { PermissionFlagsBits } from 'discord.js';

import {
  commandOption,
  startAdminHarness,
  type AdminHarness,
  type AdminHarnessOptions,
  type Answer,
} from '../../../e2e/admin-harness.js';

/** What the bot's role grants in the /duty role tests: enough to post, and Manage Roles. */
export const BOT_MANAGING_ROLES =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ManageRoles;

/** The role of the member who may choose the on-duty role: Manage Server and Manage Roles, above every other. */
export const ROLE_MANAGERS = 'Duty Managers';

/**
 * The admin harness with a webhook for every event and a role manager: a member holding Manage Server and Manage
 * Roles through a role above all others, who may choose an on-duty role the bot may give.
 */
export interface DutyRoleHarness {
  h: AdminHarness;
  webhookId: string;
  /** The role manager's user id. */
  manager: string;
  /** /duty role as the role manager, with `roleId` (none: off). */
  setRole(roleId?: string): Promise<Answer>;
  /** Waits until the member holds the role (or, `wanted` false, does not). */
  holds(memberId: string, roleId: string, wanted: boolean): Promise<unknown>;
}

export async function startDutyRoleHarness(options: AdminHarnessOptions): Promise<DutyRoleHarness> {
  const h = await startAdminHarness({
    ...options,
    roles: [
      ...(options.roles ?? []),
      { name: ROLE_MANAGERS, permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles },
    ],
  });
  await h.setup(h.service.issueKey());
  const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
  const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
  // Staff too, as the admin is: it lets them see the channel the command is run in.
  const manager = h.discord.addMember(h.guild.id, {
    username: 'mia',
    roleIds: [h.guild.staffRoleId, h.guild.roles[ROLE_MANAGERS] ?? ''],
  });
  return {
    h,
    webhookId,
    manager,
    setRole: (roleId) =>
      h.run('duty', 'role', roleId === undefined ? [] : [commandOption.role('role', roleId)], { userId: manager }),
    holds: (memberId, roleId, wanted) =>
      h.discord.waitFor(
        () => (h.discord.memberRoles(h.guild.id, memberId)?.includes(roleId) ?? false) === wanted,
        15_000,
        `${memberId} ${wanted ? 'holding' : 'without'} the role`,
      ),
  };
}
