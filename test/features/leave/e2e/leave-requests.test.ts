import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { buttonClick, type FakeMessage } from '../../../../fakes/discord/index.js';
import { leaveModule } from '../../../../src/features/leave/store/leave-module.js';
import { commandOption, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';

/** Noon on 23 Nov 2026 in Berlin (UTC+1): the bot's clock, moved by the tests. */
const NOW = Date.UTC(2026, 10, 23, 11);
const BOT_MANAGING_ROLES =
  PermissionFlagsBits.ViewChannel |
  PermissionFlagsBits.SendMessages |
  PermissionFlagsBits.EmbedLinks |
  PermissionFlagsBits.ManageRoles;

/**
 * /leave end to end against the fake Discord: who may ask and decide, the refusals in plain words, the card and
 * its buttons, and an approved leave that starts and ends by itself across restarts, its role given and taken back.
 */
describe('/leave', () => {
  let h: AdminHarness;
  /** The bot's clock runs on from `now`, as a real one does (a job's retry comes due), and is moved by the test. */
  let now = NOW;
  let since = Date.now();
  const moveTo = (at: number) => {
    now = at;
    since = Date.now();
    return Promise.resolve();
  };
  const cleanups: Array<() => Promise<unknown>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  const start = async () => {
    await moveTo(NOW);
    h = await startAdminHarness({
      clock: () => now + (Date.now() - since),
      botPermissions: BOT_MANAGING_ROLES,
      roles: [
        { name: 'On Leave', position: 4 },
        { name: 'Leave Managers', position: 5 },
        { name: 'Role Managers', permissions: PermissionFlagsBits.ManageRoles, position: 6 },
      ],
    });
    cleanups.push(() => h.stop());
    // The bot above every role of the test: only the rule under test refuses.
    h.discord.editRole(h.guild.id, h.guild.botRoleId, { position: 20 });
    await h.run('record', 'staff-role', [commandOption.role('role', h.guild.staffRoleId)]);
  };
  const role = (name: string) => h.guild.roles[name] ?? '';
  const member = () => h.discord.users.member.id;
  const ask = (from: string, to: string, as: 'member' | { userId: string } = 'member', type = 'leave') =>
    h.run(
      'leave',
      'request',
      [
        commandOption.string('from', from),
        commandOption.string('to', to),
        commandOption.string('reason', 'exams'),
        commandOption.string('type', type),
      ],
      as,
    );
  const openRequests = () =>
    h.run('leave', 'channel', [
      commandOption.channel('channel', h.channel('general')),
      commandOption.string('timezone', 'Europe/Berlin'),
    ]);
  const cardOf = async (number: number): Promise<FakeMessage> => {
    await h.discord.waitFor(
      () =>
        h.discord.messages(h.channel('general')).some((m) => m.embeds[0]?.footer?.text === `Leave request #${number}`),
      10_000,
      `the card of request #${number}`,
    );
    const card = h.discord
      .messages(h.channel('general'))
      .find((m) => m.embeds[0]?.footer?.text === `Leave request #${number}`);
    if (!card) throw new Error('no card');
    return card;
  };
  const click = async (card: FakeMessage, button: 'approve' | 'deny', as: 'admin' | 'member' | { userId: string }) =>
    h.discord.dispatchInteraction(
      buttonClick({
        customId: `leave:${button}:${/#(\d+)/.exec(card.embeds[0]?.footer?.text ?? '')?.[1] ?? ''}`,
        message: card,
        as,
        guildId: h.guild.id,
      }),
      { timeoutMs: 15_000 },
    );
  const holds = (roleId: string, wanted: boolean) =>
    h.discord.waitFor(
      () => (h.discord.memberRoles(h.guild.id, member())?.includes(roleId) ?? false) === wanted,
      15_000,
      `the member ${wanted ? 'holding' : 'without'} the leave role`,
    );

  it('refuses in plain words: not staff, not open, a date in the past, an end before the start, an overlap', async () => {
    await start();
    const outsider = h.discord.addMember(h.guild.id, { username: 'zoe' });
    expect((await ask('2026-11-24', '2026-11-26', { userId: outsider })).text).toBe(
      `You need the Manage Server permission or the <@&${h.guild.staffRoleId}> role to read this server's record.`,
    );
    expect((await ask('2026-11-24', '2026-11-26')).text).toBe(
      'Leave requests are not open here: an admin chooses their channel with /leave channel.',
    );
    // /staff activity, the leave feature's part of the record's /staff: for the record's readers only.
    expect((await h.run('staff', 'activity', [], { userId: outsider })).text).toBe(
      `You need the Manage Server permission or the <@&${h.guild.staffRoleId}> role to read this server's record.`,
    );
    const activity = JSON.stringify((await h.run('staff', 'activity', [], 'member')).outcome.responses);
    expect(activity).toContain('Staff activity: this month');
    expect(activity).toContain('Nobody had a shift, a case or a claim in this period.');
    expect((await h.run('leave', 'channel', [commandOption.string('timezone', 'Mars/Olympus')])).text).toContain(
      'I do not know the time zone "Mars/Olympus"',
    );
    await openRequests();
    // 22 Nov is yesterday in Berlin.
    expect((await ask('2026-11-22', '2026-11-26')).text).toBe(
      '2026-11-22 is in the past (today is 2026-11-23 in Europe/Berlin): a request starts today or later. Nothing was saved.',
    );
    expect((await ask('2026-11-26', '2026-11-24')).text).toBe(
      'The leave ends (2026-11-24) before it starts (2026-11-26). Nothing was saved.',
    );
    expect((await ask('2026-02-30', '2026-11-24')).text).toBe(
      'From: "2026-02-30" is not a date like 2026-12-24. Nothing was saved.',
    );
    // /quota's reduced hours for members on reduced activity: below the quota, kept with it.
    const quota = (reduced: number) => [
      commandOption.role('role', h.guild.staffRoleId),
      commandOption.integer('hours', 10),
      commandOption.string('per', 'week'),
      commandOption.integer('reduced', reduced),
    ];
    expect((await h.run('quota', 'set', quota(10))).text).toBe(
      'The reduced quota is 0 to 9 hours (below the quota). Nothing was saved.',
    );
    expect((await h.run('quota', 'list')).text).toBe('No quotas yet: set one with /quota set.');
    expect((await h.run('quota', 'set', quota(4))).text).toContain('one on reduced activity is to reach 4 h.');
    expect((await h.run('quota', 'list')).text).toBe(
      `<@&${h.guild.staffRoleId}>: 10 h a week (4 h on reduced activity)`,
    );
    const stored = await ask('2026-11-24', '2026-11-26');
    expect(stored.text).toMatch(/^Leave of absence request #1 \(<t:\d+:D> to <t:\d+:D>, 3 days\) is posted in/);
    const overlap = await ask('2026-11-26', '2026-11-30', 'member', 'reduced');
    expect(overlap.text).toMatch(/^Your request #1 \(<t:\d+:D> to <t:\d+:D>, pending\) overlaps these days/);
    expect(await h.bot.store.of(leaveModule).requestsOf(h.guild.id, member(), 10)).toHaveLength(1);
    // Berlin's days: from the midnight starting 24 Nov (23:00 UTC) to the midnight ending 26 Nov.
    expect(await h.bot.store.of(leaveModule).requestOf(h.guild.id, 1)).toMatchObject({
      startsAt: Date.UTC(2026, 10, 23, 23),
      endsAt: Date.UTC(2026, 10, 26, 23),
    });
  });

  it('lets only a leave manager decide, and never with a leave role they could not give themselves', async () => {
    await start();
    await openRequests();
    await h.run('leave', 'managers', [commandOption.role('role', role('Leave Managers'))]);
    const manager = h.discord.addMember(h.guild.id, {
      username: 'lea',
      roleIds: [h.guild.staffRoleId, role('Leave Managers')],
    });
    // The admin lacks Manage Roles: they may not choose a leave role.
    expect((await h.run('leave', 'role', [commandOption.role('role', role('On Leave'))])).text).toBe(
      'You need the Manage Roles permission to choose the leave role: the bot gives only a role you could give yourself.',
    );
    // A role manager whose highest role is below the leave role may not either.
    const low = h.discord.addMember(h.guild.id, {
      username: 'rob',
      roleIds: [h.guild.staffRoleId, h.guild.adminRoleId, role('Role Managers')],
    });
    h.discord.editRole(h.guild.id, role('On Leave'), { position: 7 });
    expect((await h.run('leave', 'role', [commandOption.role('role', role('On Leave'))], { userId: low })).text).toBe(
      `<@&${role('On Leave')}> is not below your highest role (<@&${role('Role Managers')}>), so Discord would not let you give it yourself: choose a lower role.`,
    );
    h.discord.editRole(h.guild.id, role('On Leave'), { position: 4 });
    expect(
      (await h.run('leave', 'role', [commandOption.role('role', role('On Leave'))], { userId: low })).text,
    ).toContain(`Members on approved leave now get <@&${role('On Leave')}>`);

    await ask('2026-11-24', '2026-11-26');
    const card = await cardOf(1);
    expect(card.components).not.toEqual([]);
    // A member who is not a leave manager.
    expect((await click(card, 'approve', 'member')).reply?.content).toBe(
      `Only members with <@&${role('Leave Managers')}> or Manage Server decide leave requests.`,
    );
    // A leave manager without Manage Roles: approving would give a role they could not give.
    expect((await click(card, 'approve', { userId: manager })).reply?.content).toBe(
      'Nothing was decided. You need the Manage Roles permission to choose the leave role: the bot gives only a role you could give yourself.',
    );
    expect((await h.bot.store.of(leaveModule).requestOf(h.guild.id, 1))?.state).toBe('pending');
    // Denying gives no role: they may.
    const denied = await click(card, 'deny', { userId: manager });
    expect(denied.callback.type).toBe(7);
    expect((await h.bot.store.of(leaveModule).requestOf(h.guild.id, 1))?.state).toBe('denied');
    const shown = await cardOf(1);
    expect(shown.components).toEqual([]);
    expect(shown.embeds[0]?.fields?.find((f) => f.name === 'State')?.value).toBe(`Denied by <@${manager}>`);
    // A second click on a stale card changes nothing.
    expect((await click(card, 'approve', 'admin')).reply?.content).toBe('Request #1 was already denied.');
  });

  it('starts an approved leave and ends it by itself across restarts, giving the leave role for its duration', async () => {
    await start();
    await openRequests();
    const roleManager = h.discord.addMember(h.guild.id, {
      username: 'rob',
      roleIds: [h.guild.staffRoleId, h.guild.adminRoleId, role('Role Managers')],
    });
    await h.run('leave', 'role', [commandOption.role('role', role('On Leave'))], { userId: roleManager });
    await h.run('duty', 'board', [commandOption.channel('channel', h.channel('shifts'))]);
    const board = () => h.discord.messages(h.channel('shifts'))[0]?.embeds[0];
    await h.discord.waitFor(() => board(), 10_000, 'the board');
    expect(board()?.fields ?? []).toEqual([]);
    const asked = await ask('2026-11-24', '2026-11-26');
    const card = await cardOf(1);
    const approved = await click(card, 'approve', { userId: roleManager });
    expect(approved.callback.type).toBe(7);
    // The fake Discord opens no DMs: the requester hears under the request they made, and the manager is told so.
    const said = (id: string, text: string) => () =>
      h.discord.interactionResponses(id).some((response) => JSON.stringify(response).includes(text));
    await h.discord.waitFor(said(asked.outcome.id, 'was approved by'), 10_000, 'the requester told');
    await h.discord.waitFor(said(approved.id, 'was told under the request they made'), 10_000, 'the manager told');
    expect((await h.bot.store.of(leaveModule).requestOf(h.guild.id, 1))?.state).toBe('approved');
    // The decision is in the audit log, by the manager who clicked.
    await h.discord.waitFor(
      async () =>
        JSON.stringify((await h.run('audit')).outcome.responses).includes(
          `<@${roleManager}> Approve (/leave button) → done`,
        ) || undefined,
      10_000,
      'the decision audited',
    );
    expect(h.discord.memberRoles(h.guild.id, member())).not.toContain(role('On Leave'));

    // The bot is down when the leave starts; started again, it gives the role.
    await h.restart(() => moveTo(Date.UTC(2026, 10, 24, 8)));
    await holds(role('On Leave'), true);
    expect(await h.bot.store.of(leaveModule).roleHolderOf(h.guild.id, 1)).toMatchObject({ memberId: member() });
    // The duty board shows who is on leave, to their last day.
    await h.discord.waitFor(
      () => board()?.fields?.some((f) => f.name === 'On leave: 1'),
      10_000,
      'the board with leave',
    );
    expect(board()?.fields?.find((f) => f.name === 'On leave: 1')?.value).toBe(
      `<@${member()}> · on leave to <t:${Math.floor((Date.UTC(2026, 10, 26, 23) - 1) / 1000)}:D>`,
    );

    // Down again when it ends: started again, it takes the role back.
    await h.restart(() => moveTo(Date.UTC(2026, 10, 27, 8)));
    await holds(role('On Leave'), false);
    expect(await h.bot.store.of(leaveModule).roleHolderOf(h.guild.id, 1)).toBeUndefined();
    await h.discord.waitFor(() => (board()?.fields ?? []).length === 0 || undefined, 10_000, 'the board without leave');
  });

  it('gives no leave role at the start when the manager who approved could no longer give it', async () => {
    await start();
    await openRequests();
    const roleManager = h.discord.addMember(h.guild.id, {
      username: 'rob',
      roleIds: [h.guild.staffRoleId, h.guild.adminRoleId, role('Role Managers')],
    });
    await h.run('leave', 'role', [commandOption.role('role', role('On Leave'))], { userId: roleManager });
    await ask('2026-11-24', '2026-11-26');
    expect((await click(await cardOf(1), 'approve', { userId: roleManager })).callback.type).toBe(7);
    // Between the approval and the start, the leave role is moved above the manager's highest role.
    h.discord.editRole(h.guild.id, role('On Leave'), { position: 7 });
    await h.restart(() => moveTo(Date.UTC(2026, 10, 24, 8)));
    await h.discord.waitFor(
      () => h.logs.text().includes('the leave role was not given') || undefined,
      15_000,
      'the refusal logged',
    );
    // The leave stands (the member is excused); nobody was given the role.
    expect(h.discord.memberRoles(h.guild.id, member())).not.toContain(role('On Leave'));
    expect(await h.bot.store.of(leaveModule).roleHolderOf(h.guild.id, 1)).toBeUndefined();
    expect(await h.bot.store.of(leaveModule).requestOf(h.guild.id, 1)).toMatchObject({
      state: 'approved',
      work: 'end',
    });
  });

  it('lists, cancels and ends early: only what the member may, in plain words', async () => {
    await start();
    await openRequests();
    expect((await h.run('leave', 'cancel', [], 'member')).text).toBe('You have no request to cancel.');
    expect((await h.run('leave', 'end', [], 'member')).text).toBe(
      'You have no leave under way to end. (A leave not started yet is cancelled with /leave cancel.)',
    );
    await ask('2026-11-24', '2026-11-26');
    await ask('2026-11-28', '2026-11-29');
    expect((await h.run('leave', 'cancel', [commandOption.integer('number', 2)], 'member')).text).toBe(
      'Request #2 is cancelled.',
    );
    expect((await h.run('leave', 'cancel', [commandOption.integer('number', 2)], 'member')).text).toMatch(
      /^Request #2 is cancelled by its member: only a pending request/,
    );
    expect((await click(await cardOf(1), 'approve', 'admin')).callback.type).toBe(7);
    const listed = (await h.run('leave', 'list', [commandOption.user('member', member())], 'member')).text;
    expect(listed.split('\n')).toEqual([
      `Leave requests of <@${member()}>, the latest first:`,
      expect.stringMatching(/^\*\*#2\*\* Leave of absence, <t:\d+:D> to <t:\d+:D>: Cancelled by its member$/),
      expect.stringMatching(
        new RegExp(
          `^\\*\\*#1\\*\\* Leave of absence, <t:\\d+:D> to <t:\\d+:D>: Approved, starts <t:\\d+:D> \\(approved by <@${h.discord.users.admin.id}>\\)$`,
        ),
      ),
    ]);
    // Under way: it cannot be cancelled any more, and ends early when its member is back.
    await moveTo(Date.UTC(2026, 10, 25, 9));
    expect((await h.run('leave', 'cancel', [commandOption.integer('number', 1)], 'member')).text).toMatch(
      /^Request #1 is under way/,
    );
    expect((await h.run('leave', 'end', [], 'member')).text).toBe('Welcome back: your leave (#1) ended now.');
    const ended = await h.bot.store.of(leaveModule).requestOf(h.guild.id, 1);
    expect(ended?.endsAt).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 25, 9));
    expect(ended?.endsAt).toBeLessThan(Date.UTC(2026, 10, 25, 10));
    expect(ended?.plannedEnd).toBe(Date.UTC(2026, 10, 26, 23));
  });

  it('answers an empty list, closes and reopens requests, and names reduced activity in each answer', async () => {
    await start();
    await openRequests();
    expect((await h.run('leave', 'list', [], 'member')).text).toBe(
      'No requests are pending, and nobody is on leave or about to be.',
    );
    expect((await h.run('leave', 'list', [commandOption.user('member', member())], 'member')).text).toBe(
      `<@${member()}> has no leave requests.`,
    );
    expect((await h.run('leave', 'cancel', [commandOption.integer('number', 7)], 'member')).text).toBe(
      'You have no request #7.',
    );
    // @everyone is every member: choosing it would let anyone decide.
    expect((await h.run('leave', 'managers', [commandOption.role('role', h.guild.id)])).text).toBe(
      '@everyone cannot be the leave managers: choose a role of its own.',
    );
    expect((await h.run('leave', 'managers', [commandOption.role('role', role('Leave Managers'))])).text).toBe(
      `<@&${role('Leave Managers')}> now approve and deny leave requests (and members with Manage Server).`,
    );
    // Opened again with managers chosen: the answer names them instead of asking for them.
    expect((await openRequests()).text).toBe(
      `Leave requests are posted in <#${h.channel('general')}>, their days read in Europe/Berlin (at most 183 days). ` +
        `<@&${role('Leave Managers')}> approve and deny them.`,
    );
    expect((await h.run('leave', 'role', [])).text).toBe(
      'No role is given for leave any more (those who hold it now keep it until their leave ends).',
    );
    const blank = await h.run(
      'leave',
      'request',
      [
        commandOption.string('from', '2026-11-24'),
        commandOption.string('to', '2026-11-24'),
        commandOption.string('reason', '   '),
      ],
      'member',
    );
    expect(blank.text).toBe('The reason is 1 to 300 characters. Nothing was saved.');
    expect(await h.bot.store.of(leaveModule).requestsOf(h.guild.id, member(), 10)).toEqual([]);
    expect((await ask('2026-11-24', '2026-11-24', 'member', 'reduced')).text).toMatch(
      /^Reduced activity request #1 \(<t:\d+:D> to <t:\d+:D>, 1 day\) is posted in/,
    );
    const open = (await h.run('leave', 'list', [], 'member')).text.split('\n');
    expect(open).toEqual([
      'Requests pending, leave under way and to come:',
      `**#1** Reduced activity, <t:${Math.floor(Date.UTC(2026, 10, 23, 23) / 1000)}:D> to <t:${Math.floor((Date.UTC(2026, 10, 24, 23) - 1) / 1000)}:D>: Waiting for a leave manager · <@${member()}>`,
    ]);
    expect((await click(await cardOf(1), 'approve', 'admin')).callback.type).toBe(7);
    // Closed: requests made stay, new ones are refused until an admin opens them again.
    expect((await h.run('leave', 'channel', [])).text).toBe(
      'Leave requests are closed: requests already made stay as they are.',
    );
    expect((await ask('2026-11-28', '2026-11-29')).text).toBe(
      'Leave requests are not open here: an admin chooses their channel with /leave channel.',
    );
    await moveTo(Date.UTC(2026, 10, 24, 9));
    expect((await h.run('leave', 'end', [], 'member')).text).toBe(
      'Welcome back: your reduced activity (#1) ended now.',
    );
  });

  it("shows a member's leave on /staff history's timeline: approved, denied and ended early, never a cancelled one", async () => {
    await start();
    await openRequests();
    await ask('2026-11-24', '2026-11-26');
    await ask('2026-11-28', '2026-11-29', 'member', 'reduced');
    await ask('2026-12-02', '2026-12-03');
    expect((await h.run('leave', 'cancel', [commandOption.integer('number', 3)], 'member')).text).toBe(
      'Request #3 is cancelled.',
    );
    expect((await click(await cardOf(1), 'approve', 'admin')).callback.type).toBe(7);
    expect((await click(await cardOf(2), 'deny', 'admin')).callback.type).toBe(7);
    await moveTo(Date.UTC(2026, 10, 25, 9));
    expect((await h.run('leave', 'end', [], 'member')).text).toBe('Welcome back: your leave (#1) ended now.');

    const answer = await h.run('staff', 'history', [commandOption.user('member', member())]);
    const timeline = (answer.outcome.reply?.embeds[0]?.description ?? '').split('\n');
    const day = (ms: number) => `<t:${Math.floor(ms / 1000)}:D>`;
    const admin = h.discord.users.admin.id;
    // Newest first, each at the day it starts; the cancelled request #3 is not a fact of the member's service.
    expect(timeline.slice(2)).toEqual([
      `<t:${Math.floor(Date.UTC(2026, 10, 27, 23) / 1000)}:d> **Reduced activity** #2, ${day(Date.UTC(2026, 10, 27, 23))} to ${day(Date.UTC(2026, 10, 29, 23) - 1)}: Denied by <@${admin}> · exams`,
      expect.stringMatching(
        new RegExp(
          `^<t:${Math.floor(Date.UTC(2026, 10, 23, 23) / 1000)}:d> \\*\\*Leave of absence\\*\\* #1, ${day(Date.UTC(2026, 10, 23, 23))} to ${day(Date.UTC(2026, 10, 26, 23) - 1)}: Ended early <t:\\d+:D>, approved by <@${admin}> · exams$`,
        ),
      ),
    ]);
  });
});
