import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { dutyModule } from '../../../../src/features/duty/store/duty-module.js';
import { commandOption, type AdminHarness, type AdminHarnessOptions } from '../../../e2e/admin-harness.js';
import { alertsOf } from '../../../helpers/alerts.js';
import { createTestDatabase, POSTGRES_URL } from '../../../helpers/postgres-database.js';
import { BOT_MANAGING_ROLES, startDutyRoleHarness, type DutyRoleHarness } from './duty-role-harness.js';
import { shiftOf } from './duty-shifts.js';

const ALERT_TITLE = 'The on-duty role is no longer given';

/**
 * /duty role end to end, as admins would try it: who may choose the role, which roles the bot refuses to give, a
 * role changed in Discord after it was chosen, and whom the bot gave it to across a restart.
 */
describe('who may choose the on-duty role, and which', () => {
  let roles: DutyRoleHarness;
  let h: AdminHarness;
  const cleanups: Array<() => Promise<unknown>> = [];

  const start = async (options: AdminHarnessOptions) => {
    roles = await startDutyRoleHarness(options);
    h = roles.h;
    cleanups.push(() => h.stop());
  };
  const roleId = (name: string) => h.guild.roles[name] ?? '';
  const chosenRole = async () => (await h.bot.store.of(dutyModule).settingsOf(h.guild.id)).roleId;
  /** Raises the bot's role above every role of the test, so that only the rule under test can refuse. */
  const raiseBot = () => h.discord.editRole(h.guild.id, h.guild.botRoleId, { position: 20 });
  const setRoleAs = (userId: string, role: string) =>
    h.run('duty', 'role', [commandOption.role('role', role)], { userId });

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it('refuses a member with Manage Server but not Manage Roles, whatever the role, @Admin or a harmless one', async () => {
    await start({
      botPermissions: BOT_MANAGING_ROLES,
      roles: [
        { name: 'On Duty', position: 1 },
        { name: 'Server Admins', permissions: PermissionFlagsBits.Administrator, position: 2 },
      ],
    });
    const refusal =
      'You need the Manage Roles permission to choose the on-duty role: the bot gives only a role you could give yourself.';
    // The admin of the fake guild holds Manage Server through their role, and not Manage Roles.
    const admin = await h.run('duty', 'role', [commandOption.role('role', roleId('Server Admins'))]);
    expect(admin.ephemeral).toBe(true);
    expect(admin.text).toBe(refusal);
    const harmless = await h.run('duty', 'role', [commandOption.role('role', roleId('On Duty'))]);
    expect(harmless.text).toBe(refusal);
    expect(await chosenRole()).toBeNull();

    // A member who may give it themselves may choose it; who chose it is kept, to be checked again at each grant.
    const allowed = await roles.setRole(roleId('On Duty'));
    expect(allowed.text).toContain(`The staff on shift now get <@&${roleId('On Duty')}>`);
    expect(await h.bot.store.of(dutyModule).settingsOf(h.guild.id)).toMatchObject({
      roleId: roleId('On Duty'),
      roleSetBy: roles.manager,
    });
  });

  it("refuses a role not below the member's highest role, their own included, except for the server's owner", async () => {
    await start({
      botPermissions: BOT_MANAGING_ROLES,
      roles: [
        { name: 'On Duty', position: 10 },
        {
          name: 'Junior Managers',
          permissions: PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles,
          position: 12,
        },
        { name: 'Shift Leads', position: 14 },
      ],
    });
    raiseBot();
    const junior = h.discord.addMember(h.guild.id, {
      username: 'jo',
      roleIds: [h.guild.staffRoleId, roleId('Junior Managers')],
    });
    const above = await setRoleAs(junior, roleId('Shift Leads'));
    expect(above.text).toBe(
      `<@&${roleId('Shift Leads')}> is not below your highest role (<@&${roleId('Junior Managers')}>), so Discord ` +
        'would not let you give it yourself: choose a lower role.',
    );
    const own = await setRoleAs(junior, roleId('Junior Managers'));
    expect(own.text).toBe(
      `<@&${roleId('Junior Managers')}> is not below your highest role (<@&${roleId('Junior Managers')}>), so ` +
        'Discord would not let you give it yourself: choose a lower role.',
    );
    expect(await chosenRole()).toBeNull();
    expect((await setRoleAs(junior, roleId('On Duty'))).text).toContain('The staff on shift now get');
    expect(await chosenRole()).toBe(roleId('On Duty'));

    // The owner may give any role Discord lets the bot give, whatever their own roles.
    const owner = h.discord.addOwnerMember(h.guild.id);
    const byOwner = await setRoleAs(owner, roleId('Shift Leads'));
    expect(byOwner.text).toBe(
      `The staff on shift now get <@&${roleId('Shift Leads')}>, and lose it when their shift ends (or after 16 h with no end).`,
    );
    expect(await h.bot.store.of(dutyModule).settingsOf(h.guild.id)).toMatchObject({
      roleId: roleId('Shift Leads'),
      roleSetBy: owner,
    });
  });

  it('refuses a role carrying any permission that could take over the server, whoever asks (the owner too)', async () => {
    await start({ botPermissions: BOT_MANAGING_ROLES, roles: [{ name: 'Loaded', position: 10 }] });
    raiseBot();
    const owner = h.discord.addOwnerMember(h.guild.id);
    const loaded = roleId('Loaded');
    const dangerous: Array<[string, bigint]> = [
      ['Administrator', PermissionFlagsBits.Administrator],
      ['Manage Server', PermissionFlagsBits.ManageGuild],
      ['Manage Roles', PermissionFlagsBits.ManageRoles],
      ['Manage Channels', PermissionFlagsBits.ManageChannels],
      ['Manage Webhooks', PermissionFlagsBits.ManageWebhooks],
      ['Ban Members', PermissionFlagsBits.BanMembers],
      ['Kick Members', PermissionFlagsBits.KickMembers],
      ['Mention @everyone, @here and All Roles', PermissionFlagsBits.MentionEveryone],
    ];
    for (const [name, bit] of dangerous) {
      h.discord.editRole(h.guild.id, loaded, { permissions: bit | PermissionFlagsBits.ViewChannel });
      const refused = await setRoleAs(owner, loaded);
      expect(refused.text, name).toBe(
        `<@&${loaded}> carries ${name}: the bot gives no role that does, since it hands roles out on its own. ` +
          'Take it off the role in Server Settings → Roles, or choose another role.',
      );
      expect(await chosenRole(), name).toBeNull();
    }
    h.discord.editRole(h.guild.id, loaded, {
      permissions: PermissionFlagsBits.KickMembers | PermissionFlagsBits.BanMembers,
    });
    expect((await setRoleAs(owner, loaded)).text).toBe(
      `<@&${loaded}> carries Ban Members and Kick Members: the bot gives no role that does, since it hands roles ` +
        'out on its own. Take them off the role in Server Settings → Roles, or choose another role.',
    );
    // Without them, the same role is given.
    h.discord.editRole(h.guild.id, loaded, { permissions: PermissionFlagsBits.ViewChannel });
    expect((await setRoleAs(owner, loaded)).text).toContain(`The staff on shift now get <@&${loaded}>`);
  });
});

/** A role changed in Discord after it was chosen: the bot checks again at every grant. */
describe('an on-duty role that gains a dangerous permission later', () => {
  let roles: DutyRoleHarness;
  let h: AdminHarness;

  afterEach(async () => {
    await h.stop();
  });

  const start = async () => {
    roles = await startDutyRoleHarness({
      botPermissions: BOT_MANAGING_ROLES,
      roles: [{ name: 'On Duty', position: 1 }],
    });
    h = roles.h;
    await h.run('alerts', 'set', [commandOption.channel('channel', h.channel('general'))]);
    const onDuty = h.guild.roles['On Duty'] ?? '';
    await roles.setRole(onDuty);
    return onDuty;
  };
  const alerts = () => alertsOf(h.discord, h.channel('general'), ALERT_TITLE);
  const requestsFor = (method: string, memberId: string, roleId: string) =>
    h.discord.requests.filter(
      (request) => request.method === method && request.path.endsWith(`/members/${memberId}/roles/${roleId}`),
    );

  it('is given to nobody at the next shift, is taken back, raises a health alert, and is given again once fixed', async () => {
    const onDuty = await start();
    const [ana, ben, cy] = ['ana', 'ben', 'cy'].map((username) => h.discord.addMember(h.guild.id, { username }));
    if (!ana || !ben || !cy) throw new Error('no members');
    await h.service.deliver(roles.webhookId, shiftOf('started', 1, ana));
    await roles.holds(ana, onDuty, true);

    // An admin gives the role Administrator in Discord; the bot did not hear of it (its gateway was away).
    h.discord.editRole(h.guild.id, onDuty, { permissions: PermissionFlagsBits.Administrator }, { announce: false });
    await h.service.deliver(roles.webhookId, shiftOf('started', 2, ben));
    const alert = await alerts().lastTitled(ALERT_TITLE);
    expect(alert.api.embeds[0]?.description).toContain(
      `<@&${onDuty}> carries Administrator: the bot gives no role that does`,
    );
    expect(alert.api.embeds[0]?.description).toContain('the members the bot gave it to have lost it');
    await roles.holds(ana, onDuty, false);
    expect(requestsFor('DELETE', ana, onDuty).at(-1)?.auditLogReason).toBe(
      'the on-duty role can no longer be given (/duty role)',
    );
    expect(requestsFor('PUT', ben, onDuty)).toEqual([]);
    expect(h.discord.memberRoles(h.guild.id, ben)).toEqual([]);
    expect((await h.run('status')).text).toContain(`the on-duty role <@&${onDuty}> is not given`);

    // Fixed (again unheard of): the next shift change gives it to everyone on shift, and the alert is resolved.
    h.discord.editRole(h.guild.id, onDuty, { permissions: 0n }, { announce: false });
    await h.service.deliver(roles.webhookId, shiftOf('started', 3, cy));
    await alerts().lastTitled(`Resolved: ${ALERT_TITLE}`);
    for (const member of [ana, ben, cy]) await roles.holds(member, onDuty, true);
    expect(alerts().messages()).toHaveLength(1);
    expect(h.discord.violations).toEqual([]);
  });

  it('is taken back as soon as Discord tells of the change, without waiting for a shift', async () => {
    const onDuty = await start();
    const ana = h.discord.addMember(h.guild.id, { username: 'ana' });
    await h.service.deliver(roles.webhookId, shiftOf('started', 1, ana));
    await roles.holds(ana, onDuty, true);

    h.discord.editRole(h.guild.id, onDuty, { permissions: PermissionFlagsBits.ManageRoles });
    await roles.holds(ana, onDuty, false);
    const alert = await alerts().lastTitled(ALERT_TITLE);
    expect(alert.api.embeds[0]?.description).toContain(`<@&${onDuty}> carries Manage Roles`);
  });

  it('is no longer given once the admin who chose it loses Manage Roles', async () => {
    const onDuty = await start();
    const ana = h.discord.addMember(h.guild.id, { username: 'ana' });
    const ben = h.discord.addMember(h.guild.id, { username: 'ben' });
    await h.service.deliver(roles.webhookId, shiftOf('started', 1, ana));
    await roles.holds(ana, onDuty, true);

    // The manager's role loses Manage Roles: the bot no longer gives, for them, a role they could not give.
    h.discord.editRole(h.guild.id, h.guild.roles['Duty Managers'] ?? '', {
      permissions: PermissionFlagsBits.ManageGuild,
    });
    await h.service.deliver(roles.webhookId, shiftOf('started', 2, ben));
    const alert = await alerts().lastTitled(ALERT_TITLE);
    expect(alert.api.embeds[0]?.description).toContain(
      `<@${roles.manager}>, who chose the on-duty role, no longer has the Manage Roles permission`,
    );
    await roles.holds(ana, onDuty, false);
    expect(requestsFor('PUT', ben, onDuty)).toEqual([]);
  });
});

/** Whom the bot gave the role to is in the store: a new process on the same store takes it back. */
describe.each([
  { engine: 'SQLite', storeUrl: async () => Promise.resolve(undefined), skip: false },
  {
    engine: 'PostgreSQL',
    storeUrl: async () => {
      const database = await createTestDatabase();
      return { url: database.url, drop: () => database.drop() };
    },
    skip: !POSTGRES_URL,
  },
])('the on-duty role across processes, on $engine', ({ storeUrl, skip }) => {
  let roles: DutyRoleHarness;
  let h: AdminHarness;
  const cleanups: Array<() => Promise<unknown>> = [];
  /** A member's role changes, which Discord refuses while a test says so. */
  const ROLE_CHANGES = /\/members\/\d+\/roles\/\d+$/;

  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /** Ana and Ben on shift, given the on-duty role by the first process. */
  const start = async () => {
    const store = await storeUrl();
    if (store) cleanups.push(store.drop);
    roles = await startDutyRoleHarness({
      botPermissions: BOT_MANAGING_ROLES,
      roles: [{ name: 'On Duty', position: 1 }],
      ...(store ? { storeUrl: store.url } : {}),
    });
    h = roles.h;
    cleanups.push(() => h.stop());
    const onDuty = h.guild.roles['On Duty'] ?? '';
    await roles.setRole(onDuty);
    const ana = h.discord.addMember(h.guild.id, { username: 'ana' });
    const ben = h.discord.addMember(h.guild.id, { username: 'ben' });
    await h.service.deliver(roles.webhookId, shiftOf('started', 1, ana));
    await h.service.deliver(roles.webhookId, shiftOf('started', 2, ben));
    await roles.holds(ana, onDuty, true);
    await roles.holds(ben, onDuty, true);
    return { onDuty, members: [ana, ben] };
  };

  it.skipIf(skip)(
    'after a restart, /duty role off takes the role from the members the previous process gave it to',
    async () => {
      const { onDuty, members } = await start();
      let restartedAt = 0;
      // The new process's first look at the guild finds Discord refusing role changes (a moment of trouble).
      await h.restart(() => {
        h.discord.failRequests({ status: 403, match: ROLE_CHANGES });
        restartedAt = Date.now();
        return Promise.resolve();
      });
      await h.discord.waitFor(
        () => h.discord.requests.some((request) => request.time >= restartedAt && request.path.includes('/roles')),
        15_000,
        'the new process looking at the roles',
      );
      h.discord.clearFaults();

      const off = await roles.setRole();
      expect(off.text).toBe(
        `The staff on shift are no longer given <@&${onDuty}>; the members on shift who have it lose it now.`,
      );
      for (const member of members) await roles.holds(member, onDuty, false);
      await h.discord.waitFor(
        async () => (await h.bot.store.of(dutyModule).roleHoldersOf(h.guild.id)).length === 0,
        10_000,
        'no holder left in the store',
      );
    },
  );

  it.skipIf(skip)('takes back a role turned off whose taking the previous process could not finish', async () => {
    const { onDuty, members } = await start();
    h.discord.failRequests({ status: 403, match: ROLE_CHANGES });
    await roles.setRole();
    // The first process tried and Discord refused; it stops before its next try a minute later.
    await h.discord.waitFor(
      () => members.every((member) => requestsRefused(h, member, onDuty)),
      15_000,
      'both takes refused',
    );
    await h.restart(() => Promise.resolve(h.discord.clearFaults()));

    for (const member of members) await roles.holds(member, onDuty, false);
    await h.discord.waitFor(
      async () => (await h.bot.store.of(dutyModule).roleHoldersOf(h.guild.id)).length === 0,
      10_000,
      'no holder left in the store',
    );
  });
});

function requestsRefused(h: AdminHarness, memberId: string, roleId: string): boolean {
  return h.discord.requests.some(
    (request) =>
      request.method === 'DELETE' &&
      request.path.endsWith(`/members/${memberId}/roles/${roleId}`) &&
      request.status === 403,
  );
}
