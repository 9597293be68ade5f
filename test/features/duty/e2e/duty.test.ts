import { PermissionFlagsBits } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { FakeMessage } from '../../../../fakes/discord/index.js';
import { dutyModule } from '../../../../src/features/duty/store/duty-module.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import {
  commandOption,
  registerEveryEvent,
  startAdminHarness,
  type AdminHarness,
  type AdminHarnessOptions,
} from '../../../e2e/admin-harness.js';
import { BOT_MANAGING_ROLES, startDutyRoleHarness, type DutyRoleHarness } from './duty-role-harness.js';
import { ended, shiftOf, staff, started } from './duty-shifts.js';

/** /duty board end to end: deliveries through the intake, the record's writer, the board's edits. */
describe('the on-duty board', () => {
  let h: AdminHarness;
  let webhookId = '';

  beforeEach(async () => {
    h = await startAdminHarness();
    webhookId = await registerEveryEvent(h);
  });

  afterEach(async () => {
    await h.stop();
  });

  const boardChannel = () => h.channel('shifts');
  const boards = (): FakeMessage[] =>
    h.discord.messages(boardChannel()).filter((message) => message.embeds[0]?.title?.startsWith('On duty now'));

  /** The board's message once it lists exactly the staff members `ns` on duty (by mention, in that order). */
  const boardShows = (ns: readonly number[], description = `a board listing ${ns.join(', ') || 'nobody'}`) =>
    h.discord.waitFor(
      () => {
        const board = boards().at(-1);
        const embed = board?.api.embeds[0];
        if (!embed) return false;
        const mentions = [...(embed.description ?? '').matchAll(/<@(\d+)>/g)].map((match) => match[1]);
        const wanted = ns.map((n) => staff(n).discordId);
        const title = `On duty now: ${ns.length}`;
        return embed.title === title && JSON.stringify(mentions) === JSON.stringify(wanted) ? board : false;
      },
      15_000,
      description,
    );

  it('keeps one message listing the staff on shift, edited as shifts start and end, in any order', async () => {
    const set = await h.run('duty', 'board', [commandOption.channel('channel', boardChannel())]);
    expect(set.ephemeral).toBe(true);
    expect(set.text).toContain(`The on-duty board is now kept in <#${boardChannel()}>`);
    const empty = await boardShows([]);
    expect(empty.api.embeds[0]?.description).toBe('Nobody is on shift.');

    await h.service.deliver(webhookId, started(1, 1, 30));
    await h.service.deliver(webhookId, started(2, 2, 10));
    const two = await boardShows([1, 2]);
    const line = (two.api.embeds[0]?.description ?? '').split('\n')[0] ?? '';
    expect(line).toMatch(/^<@284756102938475001> Staff\\_1 · since <t:\d+:t> \(<t:\d+:R>\)$/);
    // Nobody is pinged by the board.
    expect(two.allowed_mentions).toEqual({ parse: [] });

    // Shift 3 ends before its start arrives (deliveries may come in any order): it is never shown on duty.
    await h.service.deliver(webhookId, ended(3, 3, 5));
    await h.service.deliver(webhookId, started(3, 3, 5));
    await h.service.deliver(webhookId, ended(1, 1, 30));
    await h.service.deliver(webhookId, started(4, 4, 2));
    await boardShows([2, 4]);
    // A shift.started delivered again after its end changes nothing.
    await h.service.deliver(webhookId, { ...started(1, 1, 30), id: 'redelivered-start-1' });
    await h.service.deliver(webhookId, ended(2, 2, 10));
    const last = await boardShows([4]);

    // One message all along, edited in place.
    expect(boards()).toHaveLength(1);
    expect(last.id).toBe(empty.id);
    expect(h.discord.violations).toEqual([]);
    expect(h.discord.rateLimitHits).toBe(0);
  });

  it('posts the board anew when its message was deleted, and stores the new one', async () => {
    await h.run('duty', 'board', [commandOption.channel('channel', boardChannel())]);
    const first = await boardShows([]);
    h.discord.deleteMessage(first.id);

    await h.service.deliver(webhookId, started(1, 1, 3));
    const second = await boardShows([1]);
    expect(second.id).not.toBe(first.id);
    expect(boards()).toHaveLength(1);
    await h.discord.waitFor(
      async () => (await h.bot.store.of(dutyModule).settingsOf(h.guild.id)).boardMessageId === second.id,
      5_000,
      'the new board message stored',
    );

    // The next change edits the new message.
    await h.service.deliver(webhookId, started(2, 2, 1));
    const third = await boardShows([1, 2]);
    expect(third.id).toBe(second.id);
  });

  it('shows a shift open over 16 hours apart, as never ended', async () => {
    await h.run('duty', 'board', [commandOption.channel('channel', boardChannel())]);
    await h.service.deliver(webhookId, started(1, 1, 17 * 60));
    await h.service.deliver(webhookId, started(2, 2, 60));
    const board = await boardShows([2]);
    const field = board.api.embeds[0]?.fields?.[0];
    expect(field?.name).toBe('Shift never ended (open over 16 h): 1');
    expect(field?.value).toContain('<@284756102938475001> Staff\\_1');
  });

  it('ends 200 shift changes in a minute with the right board, within the edit rate limit', async () => {
    await h.run('duty', 'board', [commandOption.channel('channel', boardChannel())]);
    const board = await boardShows([]);
    // 110 members start a shift and 90 of them end it: 200 changes over about 8 s, ten every 400 ms.
    const changes = [
      ...Array.from({ length: 110 }, (_, i) => started(i + 1, i + 1, 219 - i)),
      ...Array.from({ length: 90 }, (_, i) => ended(i + 1, i + 1, 219 - i)),
    ];
    for (let at = 0; at < changes.length; at += 10) {
      await Promise.all(changes.slice(at, at + 10).map((change) => h.service.deliver(webhookId, change)));
      await new Promise((resolve) => setTimeout(resolve, 400));
    }

    const remaining = Array.from({ length: 20 }, (_, i) => 91 + i);
    const final = await boardShows(remaining, 'the board listing members 91 to 110');
    expect(final.id).toBe(board.id);
    expect(boards()).toHaveLength(1);

    // Never limited, and never more than one edit of the board per 1.2 s (Discord allows about 5 per 5 s).
    expect(h.discord.rateLimitHits).toBe(0);
    const edits = h.discord.requests
      .filter((request) => request.method === 'PATCH' && request.path.endsWith(`/messages/${board.id}`))
      .map((request) => request.time);
    expect(edits.length).toBeGreaterThan(2);
    for (let i = 1; i < edits.length; i += 1) expect(edits[i]! - edits[i - 1]!).toBeGreaterThanOrEqual(1_150);
    for (let i = 5; i < edits.length; i += 1) expect(edits[i]! - edits[i - 5]!).toBeGreaterThanOrEqual(5_000);
    expect(h.discord.violations).toEqual([]);
  });

  it('refuses a channel the bot cannot post embeds in, and stops when asked', async () => {
    const refused = await h.run('duty', 'board', [commandOption.channel('channel', h.channel('locked'))]);
    expect(refused.ephemeral).toBe(true);
    expect(refused.text).toContain('Embed Links');
    expect((await h.bot.store.of(dutyModule).settingsOf(h.guild.id)).boardChannelId).toBeNull();

    const member = await h.run('duty', 'board', [commandOption.channel('channel', boardChannel())], 'member');
    expect(member.text).toBe('You need the Manage Server permission to use this command.');

    await h.run('duty', 'board', [commandOption.channel('channel', boardChannel())]);
    await boardShows([]);
    const stopped = await h.run('duty', 'board');
    expect(stopped.text).toBe(
      `The on-duty board in <#${boardChannel()}> is no longer updated; delete its message when you like.`,
    );
    const boardEdits = () =>
      h.discord.requests.filter(
        (request) => request.method === 'PATCH' && request.path.startsWith(`/channels/${boardChannel()}/`),
      ).length;
    const editsBefore = boardEdits();
    await h.service.deliver(webhookId, started(1, 1, 1));
    await h.discord.waitFor(
      async () => (await h.bot.store.of(recordModule).openShifts(h.guild.id)).length === 1,
      10_000,
      'the shift recorded',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(boardEdits()).toBe(editsBefore);
    expect((await h.run('duty', 'board')).text).toBe('There is no on-duty board to stop.');
  });
});

/** /duty role end to end: the role given at shift.started and taken at shift.ended, by reconciliation. */
describe('the on-duty role', () => {
  let h: AdminHarness;
  let webhookId = '';
  let roles: DutyRoleHarness;

  // Chosen by a role manager (Manage Server and Manage Roles, above every role): the bot's own rules are tested.
  const start = async (options: AdminHarnessOptions) => {
    roles = await startDutyRoleHarness(options);
    ({ h, webhookId } = roles);
  };
  const holds = (memberId: string, roleId: string, wanted: boolean) => roles.holds(memberId, roleId, wanted);

  afterEach(async () => {
    await h.stop();
  });

  it('gives the role at shift start and takes it at shift end, with an audit-log reason, whatever the order', async () => {
    await start({ botPermissions: BOT_MANAGING_ROLES, roles: [{ name: 'On Duty', position: 1 }] });
    const onDuty = h.guild.roles['On Duty'] ?? '';
    const set = await roles.setRole(onDuty);
    expect(set.ephemeral).toBe(true);
    expect(set.text).toBe(
      `The staff on shift now get <@&${onDuty}>, and lose it when their shift ends (or after 16 h with no end).`,
    );
    const ana = h.discord.addMember(h.guild.id, { username: 'ana' });
    const ben = h.discord.addMember(h.guild.id, { username: 'ben' });

    await h.service.deliver(webhookId, shiftOf('started', 1, ana));
    await holds(ana, onDuty, true);
    const given = h.discord.requests.find(
      (request) => request.method === 'PUT' && request.path.endsWith(`/${ana}/roles/${onDuty}`),
    );
    expect(given?.auditLogReason).toBe('on shift (/duty role)');

    // Ben's shift ends before its start arrives: he never gets the role, and a late start gives him nothing.
    await h.service.deliver(webhookId, shiftOf('ended', 2, ben));
    await h.service.deliver(webhookId, shiftOf('started', 2, ben));
    await h.service.deliver(webhookId, shiftOf('ended', 1, ana));
    await holds(ana, onDuty, false);
    const taken = h.discord.requests.find(
      (request) => request.method === 'DELETE' && request.path.endsWith(`/${ana}/roles/${onDuty}`),
    );
    expect(taken?.auditLogReason).toBe('shift ended (/duty role)');
    expect(h.discord.memberRoles(h.guild.id, ben)).toEqual([]);

    // Redelivered, the start of Ana's ended shift gives nothing back.
    await h.service.deliver(webhookId, { ...shiftOf('started', 1, ana), id: 'again-1' });
    await h.discord.waitFor(
      async () => (await h.bot.store.of(recordModule).openShifts(h.guild.id)).length === 0,
      10_000,
      'the record merged',
    );
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(h.discord.memberRoles(h.guild.id, ana)).toEqual([]);
    expect(h.discord.violations).toEqual([]);

    // Turned off, the role goes from whoever was given it for a shift.
    await h.service.deliver(webhookId, shiftOf('started', 3, ben));
    await holds(ben, onDuty, true);
    expect((await roles.setRole()).text).toBe(
      `The staff on shift are no longer given <@&${onDuty}>; the members on shift who have it lose it now.`,
    );
    await holds(ben, onDuty, false);
    const removed = h.discord.requests.find(
      (request) => request.method === 'DELETE' && request.path.endsWith(`/${ben}/roles/${onDuty}`),
    );
    expect(removed?.auditLogReason).toBe('the on-duty role was changed (/duty role)');
  });

  it('refuses without Manage Roles, a role not below the bot’s, a managed role and @everyone, with the reason', async () => {
    await start({});
    const low = await roles.setRole(h.guild.staffRoleId);
    expect(low.ephemeral).toBe(true);
    expect(low.text).toBe(
      'I need the Manage Roles permission to give the on-duty role: grant it to my role in Server Settings → Roles, then try again.',
    );
    expect((await h.bot.store.of(dutyModule).settingsOf(h.guild.id)).roleId).toBeNull();
    await h.stop();

    await start({
      botPermissions:
        PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages | PermissionFlagsBits.ManageRoles,
    });
    const moderators = h.guild.roles['Moderators'] ?? '';
    const above = await roles.setRole(moderators);
    expect(above.text).toBe(
      `<@&${moderators}> is not below my highest role (<@&${h.guild.botRoleId}>), so Discord will not let me give it: drag my role above it in Server Settings → Roles, or choose a lower role.`,
    );
    const managed = await roles.setRole(h.guild.botRoleId);
    expect(managed.text).toBe(
      `<@&${h.guild.botRoleId}> is managed by an integration: Discord lets nobody give it. Choose another role.`,
    );
    const everyone = await roles.setRole(h.guild.id);
    expect(everyone.text).toBe('@everyone cannot be an on-duty role: choose a role of its own.');
    const member = await h.run('duty', 'role', [commandOption.role('role', h.guild.staffRoleId)], 'member');
    expect(member.text).toBe('You need the Manage Server permission to use this command.');
    expect((await h.bot.store.of(dutyModule).settingsOf(h.guild.id)).roleId).toBeNull();
  });
});
