import { ApplicationCommandOptionType, ApplicationCommandType } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { chatInputCommand } from '../../../../fakes/discord/index.js';
import { commandOption } from '../../../e2e/admin-harness.js';
import { writeRecordRows } from './record-rows.js';
import { setUpStaff, startStaffActionsHarness, type StaffActionsHarness } from './staff-actions-harness.js';

/*
 * What /staff answers where a staff action is refused or has nothing to do, through the real bot and discord.js
 * against the fake Discord: each answer in the words the user reads, and nothing recorded, posted or changed.
 */

let s: StaffActionsHarness;

afterEach(async () => {
  await s.h.stop();
});

const rolesOf = (userId: string) => s.h.discord.memberRoles(s.h.guild.id, userId) ?? [];
const historyOf = async (memberId: string) => {
  const answer = await s.staff('history', [commandOption.user('member', memberId)]);
  const embeds = (answer.outcome.reply?.embeds ?? []) as Array<{ description?: string }>;
  return embeds.map((embed) => embed.description ?? '').join('\n');
};
const warning = (memberId: string, type = 'warning') => [
  commandOption.user('member', memberId),
  commandOption.string('type', type),
  commandOption.string('reason', 'late to a session'),
];

describe('/staff before a staff-manager role, a staff-log channel or a ladder is set', () => {
  beforeEach(async () => {
    s = await startStaffActionsHarness();
  }, 30_000);

  it('shows no ladder, refuses @everyone as the staff-manager role, and says only Manage Server acts, without cards', async () => {
    expect((await s.staff('ranks', [])).text).toBe(
      'There is no rank ladder yet: set one with /staff ranks roles:@Lowest @Next …',
    );
    const everyone = await s.staff('setup', [commandOption.role('manager-role', s.h.guild.id)]);
    expect(everyone.text).toBe('Choose a staff-manager role other than @everyone.');
    // Shown with neither option: @everyone was not kept.
    expect((await s.staff('setup', [])).text).toBe(
      'Only members with Manage Server take staff actions (set manager-role to let a role act). ' +
        'No staff-log channel: infractions and promotions are recorded without a card.',
    );
  });

  it('refuses a member without Manage Server until a staff-manager role lets them act, and a promotion with no ladder', async () => {
    const member = s.h.discord.users.member.id;
    const refused = await s.staff('infraction', warning(s.sam), member);
    expect(refused.text).toBe(
      'You need the Manage Server permission for staff actions (an admin can let a staff-manager role act with /staff setup).',
    );
    const promote = await s.staff('promote', [
      commandOption.user('member', s.sam),
      commandOption.role('to', s.roles.moderator),
    ]);
    expect(promote.text).toBe('There is no rank ladder yet: an admin sets one with /staff ranks.');
    expect(rolesOf(s.sam)).toEqual([s.h.guild.staffRoleId, s.roles.trainee]);
    expect(await historyOf(s.sam)).toContain('No infractions or promotions.');
    // Senior grants no permission: holding the staff-manager role alone lets the member act.
    expect((await s.staff('setup', [commandOption.role('manager-role', s.roles.senior)])).text).toBe(
      `Members with <@&${s.roles.senior}> (and Manage Server) take staff actions. ` +
        'No staff-log channel: infractions and promotions are recorded without a card.',
    );
    s.h.discord.grantRole(s.h.guild.id, member, s.roles.senior);
    expect((await s.staff('infraction', warning(s.sam), member)).text).toBe(
      `Recorded: Warning #1 for <@${s.sam}>. No staff-log channel is set, so no card was posted (an admin sets one with /staff setup).`,
    );
  });
});

describe('/staff once set up', () => {
  beforeEach(async () => {
    s = await startStaffActionsHarness();
    await setUpStaff(s);
  }, 30_000);

  it("refuses an action on oneself and on the server's owner, and lets the owner act on anyone", async () => {
    const self = await s.staff('infraction', warning(s.mia));
    expect(self.text).toBe('You cannot take a staff action on yourself: ask another manager. Nothing was recorded.');
    const owner = s.h.discord.addOwnerMember(s.h.guild.id, [s.h.guild.staffRoleId]);
    const onOwner = await s.staff('demote', [
      commandOption.user('member', owner),
      commandOption.role('to', s.roles.trainee),
    ]);
    expect(onOwner.text).toBe(
      `<@${owner}> owns this server: nobody can take a staff action on them. Nothing was changed.`,
    );
    // The owner holds neither the staff-manager role nor a role above Mia's, and acts on her all the same.
    const byOwner = await s.staff('infraction', warning(s.mia), owner);
    expect(byOwner.text).toBe(`Recorded: Warning #1 for <@${s.mia}>. Its card is in <#${s.log}>.`);
    await s.h.discord.waitForMessages(s.log, 1);
    expect(s.h.discord.messages(s.log).map((message) => message.embeds[0]?.title)).toEqual(['Infraction #1: Warning']);
    expect(await historyOf(owner)).toContain('No infractions or promotions.');
  });

  it('shows the ladder, and refuses an unknown infraction type and a member who has left, recording nothing', async () => {
    expect((await s.staff('ranks', [])).text).toBe(
      `The rank ladder, lowest first: <@&${s.roles.trainee}> → <@&${s.roles.moderator}> → <@&${s.roles.senior}>.`,
    );
    // A client with an older /staff than the one registered sends a type no longer offered.
    expect((await s.staff('infraction', warning(s.sam, 'reprimand'))).text).toBe(
      'Type is one of warning, strike, suspension, termination.',
    );
    // Someone who left: Discord resolves the user alone, no member, and answers Unknown Member when asked for one.
    const gone = { id: '1300000000000000077', username: 'gone', discriminator: '0', global_name: null, avatar: null };
    const draft = chatInputCommand({
      name: 'staff',
      as: { userId: s.mia },
      guildId: s.h.guild.id,
      overrides: {
        data: {
          type: ApplicationCommandType.ChatInput,
          id: '1300000000000000078',
          guild_id: s.h.guild.id,
          name: 'staff',
          options: [{ type: ApplicationCommandOptionType.Subcommand, name: 'infraction', options: warning(gone.id) }],
          resolved: { users: { [gone.id]: gone } },
        },
      },
    });
    const left = await s.h.discord.dispatchInteraction(draft, { timeoutMs: 15_000 });
    expect(left.reply?.content).toBe(`<@${gone.id}> is not a member of this server.`);
    expect(s.h.discord.messages(s.log)).toHaveLength(0);
    // Neither refusal took a number: the next infraction is #1.
    expect((await s.staff('infraction', warning(s.sam))).text).toContain(`Recorded: Warning #1 for <@${s.sam}>.`);
  });

  it('refuses a promotion that is no promotion, a demotion that is no demotion, and a role off the ladder', async () => {
    const rankChange = (direction: 'promote' | 'demote', memberId: string, roleId: string) =>
      s.staff(direction, [commandOption.user('member', memberId), commandOption.role('to', roleId)]);
    expect((await rankChange('promote', s.sam, s.roles.trainee)).text).toBe(
      `<@${s.sam}> is <@&${s.roles.trainee}>: <@&${s.roles.trainee}> is not above it, so that is no promotion (use /staff demote).`,
    );
    expect((await rankChange('demote', s.sam, s.roles.moderator)).text).toBe(
      `<@${s.sam}> is <@&${s.roles.trainee}>: <@&${s.roles.moderator}> is not below it, so that is no demotion (use /staff promote).`,
    );
    const rankless = s.h.discord.users.member.id;
    expect((await rankChange('demote', rankless, s.roles.trainee)).text).toBe(
      `<@${rankless}> is no rank: <@&${s.roles.trainee}> is not below it, so that is no demotion (use /staff promote).`,
    );
    expect((await rankChange('promote', s.sam, s.roles.juniors)).text).toBe(
      `<@&${s.roles.juniors}> is not a rank of the ladder (/staff ranks shows it).`,
    );
    expect(rolesOf(s.sam)).toEqual([s.h.guild.staffRoleId, s.roles.trainee]);
    expect(rolesOf(rankless)).toEqual([s.h.guild.staffRoleId]);
    expect(s.h.discord.messages(s.log)).toHaveLength(0);
    expect(await historyOf(s.sam)).toContain('No infractions or promotions.');
  });

  it('answers a promotion another delivery completed during its checks that it is done, and acts no more', async () => {
    const requestId = '1300000000000000079';
    // This delivery stops at its role check, after it read Sam as Trainee and found no promotion of its request.
    const rolesRead = new RegExp(`^/guilds/${s.h.guild.id}/roles$`);
    s.h.discord.hangRequests({ match: rolesRead, count: 1 });
    const from = s.h.discord.requests.length;
    const delivery = s.h.discord.dispatchInteraction(
      chatInputCommand({
        name: 'staff',
        subcommand: 'promote',
        options: [commandOption.user('member', s.sam), commandOption.role('to', s.roles.moderator)],
        as: { userId: s.mia },
        guildId: s.h.guild.id,
        overrides: { id: requestId },
      }),
      { timeoutMs: 15_000 },
    );
    await s.h.discord.waitFor(
      () => s.h.discord.requests.slice(from).some((request) => rolesRead.test(request.path)),
      10_000,
      'the delivery at its role check',
    );
    // Meanwhile another bot process on the same (PostgreSQL) store got the same interaction and promoted Sam.
    const now = Date.now();
    await writeRecordRows(`sqlite://${s.h.storeFile}`, 'staff_promotion', [
      {
        guild_id: s.h.guild.id,
        request_id: requestId,
        member_id: s.sam,
        direction: 'promote',
        from_role_id: s.roles.trainee,
        to_role_id: s.roles.moderator,
        given_by: s.mia,
        asked_at: now,
        done_at: now,
      },
    ]);
    s.h.discord.clearFaults();
    expect((await delivery).reply?.content).toBe(`Already done: <@${s.sam}> is <@&${s.roles.moderator}>.`);
    // This delivery gave and took no role, and posted no second card.
    const roleChanges = s.h.discord.requests.filter((request) => request.path.includes(`/members/${s.sam}/roles/`));
    expect(roleChanges).toEqual([]);
    expect(rolesOf(s.sam)).toEqual([s.h.guild.staffRoleId, s.roles.trainee]);
    expect(s.h.discord.messages(s.log)).toHaveLength(0);
    expect((await historyOf(s.sam)).match(/Promoted/g)).toHaveLength(1);
  });
});
