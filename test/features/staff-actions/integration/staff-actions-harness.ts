import { PermissionFlagsBits } from 'discord.js';

import { commandOption, startAdminHarness, type AdminHarness, type Answer } from '../../../e2e/admin-harness.js';

/** What the bot's role grants here: enough to post its cards, and Manage Roles. */
const BOT_PERMISSIONS =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ManageRoles;

const MANAGING = PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles;

/**
 * The guild's roles, highest first (the fake orders a tie of positions newest below):
 * bot (3) > Staff Managers (3) > Senior (3) > Admin (2) > Junior Managers (2) > Moderator (2) > Staff (1) > Trainee (1).
 * The ladder is Trainee → Moderator → Senior. Mia (Staff Managers) may give every rank; Leo (Junior Managers)
 * only Trainee and Moderator; Sam is a Trainee, the member acted on.
 */
export interface StaffActionsHarness {
  h: AdminHarness;
  roles: { managers: string; juniors: string; trainee: string; moderator: string; senior: string };
  mia: string;
  leo: string;
  sam: string;
  log: string;
  /** /staff <subcommand> as `userId` (default Mia). */
  staff(subcommand: string, options: Parameters<AdminHarness['run']>[2], userId?: string): Promise<Answer>;
}

export async function startStaffActionsHarness(): Promise<StaffActionsHarness> {
  const h = await startAdminHarness({
    botPermissions: BOT_PERMISSIONS,
    roles: [
      { name: 'Staff Managers', permissions: MANAGING, position: 3 },
      { name: 'Senior', position: 3 },
      { name: 'Junior Managers', permissions: MANAGING, position: 2 },
      { name: 'Moderator', position: 2 },
      { name: 'Trainee', position: 1 },
    ],
  });
  const role = (name: string) => {
    const id = h.guild.roles[name];
    if (!id) throw new Error(`no role ${name}`);
    return id;
  };
  const roles = {
    managers: role('Staff Managers'),
    juniors: role('Junior Managers'),
    trainee: role('Trainee'),
    moderator: role('Moderator'),
    senior: role('Senior'),
  };
  // Staff too, as the admin is: it lets them see the channel the command is run in.
  const mia = h.discord.addMember(h.guild.id, { username: 'mia', roleIds: [h.guild.staffRoleId, roles.managers] });
  const leo = h.discord.addMember(h.guild.id, { username: 'leo', roleIds: [h.guild.staffRoleId, roles.juniors] });
  const sam = h.discord.addMember(h.guild.id, { username: 'sam', roleIds: [h.guild.staffRoleId, roles.trainee] });
  const staff: StaffActionsHarness['staff'] = (subcommand, options, userId = mia) =>
    h.run('staff', subcommand, options, { userId });
  const log = h.channel('general');
  return { h, roles, mia, leo, sam, log, staff };
}

/** /staff setup and /staff ranks as Mia: the staff-manager role, the staff-log channel, the ladder. */
export async function setUpStaff(s: StaffActionsHarness): Promise<void> {
  const setup = await s.staff('setup', [
    commandOption.role('manager-role', s.roles.managers),
    commandOption.channel('log-channel', s.log),
  ]);
  if (!setup.text.includes('take staff actions')) throw new Error(`setup: ${setup.text}`);
  const ladder = `<@&${s.roles.trainee}> <@&${s.roles.moderator}> <@&${s.roles.senior}>`;
  const ranks = await s.staff('ranks', [commandOption.string('roles', ladder)]);
  if (!ranks.text.includes('rank ladder')) throw new Error(`ranks: ${ranks.text}`);
}
