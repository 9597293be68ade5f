import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { chatInputCommand } from '../../../../fakes/discord/index.js';
import { commandOption } from '../../../e2e/admin-harness.js';
import { setUpStaff, startStaffActionsHarness, type StaffActionsHarness } from './staff-actions-harness.js';

/*
 * /staff infraction, infraction-void, promote, demote and history through the real bot and discord.js against the
 * fake Discord: every refusal in plain words with nothing done, the rank role changed as Discord allows, and what
 * Discord refuses recorded as nothing.
 */
describe('/staff discipline and promotions', () => {
  let s: StaffActionsHarness;

  beforeEach(async () => {
    s = await startStaffActionsHarness();
    await setUpStaff(s);
  }, 30_000);

  afterEach(async () => {
    await s.h.stop();
  });

  const rolesOf = (userId: string) => s.h.discord.memberRoles(s.h.guild.id, userId) ?? [];
  const history = async (memberId: string) => {
    const answer = await s.staff('history', [commandOption.user('member', memberId)]);
    const embeds = (answer.outcome.reply?.embeds ?? []) as Array<{ description?: string }>;
    return embeds.map((embed) => embed.description ?? '').join('\n');
  };

  it('records an infraction once, posts its card in the staff log, and voids it struck through with who and why', async () => {
    const given = await s.staff('infraction', [
      commandOption.user('member', s.sam),
      commandOption.string('type', 'strike'),
      commandOption.string('reason', 'left a modcall unclaimed for an hour'),
      commandOption.string('evidence', 'https://example.com/clip'),
    ]);
    expect(given.text).toContain(`Strike #1 for <@${s.sam}>`);
    expect(given.ephemeral).toBe(true);
    await s.h.discord.waitForMessages(s.log, 1);
    const [card] = s.h.discord.messages(s.log);
    expect(card?.embeds[0]?.title).toBe('Infraction #1: Strike');

    const voided = await s.staff('infraction-void', [
      commandOption.integer('number', 1),
      commandOption.string('reason', 'the modcall was a duplicate'),
    ]);
    expect(voided.text).toContain('Infraction #1');
    expect(voided.text).toContain('voided');
    await s.h.discord.waitFor(
      () => s.h.discord.messages(s.log)[0]?.embeds[0]?.title === '~~Infraction #1: Strike~~ (voided)',
      10_000,
      'the card struck through',
    );
    const shown = await history(s.sam);
    expect(shown).toContain(`voided by <@${s.mia}>: the modcall was a duplicate`);
    expect(shown).toContain('active strikes: **0**');

    const again = await s.staff('infraction-void', [
      commandOption.integer('number', 1),
      commandOption.string('reason', 'twice'),
    ]);
    expect(again.text).toContain('was voided already');
    // Both are admin actions in the audit log, with who and how they ended; the history's read is a lookup.
    const audit = (await s.h.run('audit')).outcome.reply?.embeds?.[0]?.description ?? '';
    expect(audit).toContain(`<@${s.mia}>`);
    expect(audit).toContain('/staff infraction member:');
    expect(audit).toContain('/staff infraction-void number:1');
    const actions = (await s.h.run('audit', undefined, [commandOption.string('kind', 'action')])).outcome.reply
      ?.embeds?.[0]?.description;
    expect(actions).not.toContain('/staff history');
    const lookups = (await s.h.run('audit', undefined, [commandOption.string('kind', 'lookup')])).outcome.reply
      ?.embeds?.[0]?.description;
    expect(lookups).toContain(`/staff history member:<@${s.sam}>`);
  });

  it('writes an infraction and a promotion once when Discord delivers the same interaction twice', async () => {
    const twice = async (subcommand: string, id: string, options: Parameters<typeof s.staff>[1]) => {
      const answers = [];
      for (let i = 0; i < 2; i += 1) {
        const draft = chatInputCommand({
          name: 'staff',
          subcommand,
          options: options ?? [],
          as: { userId: s.mia },
          guildId: s.h.guild.id,
          overrides: { id },
        });
        answers.push((await s.h.discord.dispatchInteraction(draft, { timeoutMs: 15_000 })).reply?.content ?? '');
      }
      return answers;
    };
    const given = await twice('infraction', '1300000000000000001', [
      commandOption.user('member', s.sam),
      commandOption.string('type', 'warning'),
      commandOption.string('reason', 'late to a session'),
    ]);
    expect(given[0]).toContain(`Recorded: Warning #1 for <@${s.sam}>`);
    expect(given[1]).toContain(`Already recorded: Warning #1 for <@${s.sam}>`);
    const promoted = await twice('promote', '1300000000000000002', [
      commandOption.user('member', s.sam),
      commandOption.role('to', s.roles.moderator),
    ]);
    expect(promoted[0]).toContain('Promoted');
    expect(promoted[1]).toContain(`Already done: <@${s.sam}> is <@&${s.roles.moderator}>`);
    await s.h.discord.waitForMessages(s.log, 2);
    expect(s.h.discord.messages(s.log).map((message) => message.embeds[0]?.title)).toEqual([
      'Infraction #1: Warning',
      'Promotion',
    ]);
    const shown = await history(s.sam);
    expect(shown.match(/Warning #/g)).toHaveLength(1);
    expect(shown.match(/Promoted/g)).toHaveLength(1);
  });

  it('refuses staff actions to a member without the staff-manager role, and records nothing', async () => {
    const refused = await s.staff(
      'infraction',
      [
        commandOption.user('member', s.sam),
        commandOption.string('type', 'warning'),
        commandOption.string('reason', 'no reason'),
      ],
      s.h.discord.users.member.id,
    );
    expect(refused.text).toContain(`You need the <@&${s.roles.managers}> role`);
    const promote = await s.staff(
      'promote',
      [commandOption.user('member', s.sam), commandOption.role('to', s.roles.moderator)],
      s.h.discord.users.member.id,
    );
    expect(promote.text).toContain(`You need the <@&${s.roles.managers}> role`);
    expect(rolesOf(s.sam)).toContain(s.roles.trainee);
    expect(rolesOf(s.sam)).not.toContain(s.roles.moderator);
    expect(await history(s.sam)).toContain('No infractions or promotions.');
    expect(s.h.discord.messages(s.log)).toHaveLength(0);
  });

  it('promotes and demotes by changing the rank role, with a card, kept in the history', async () => {
    const promoted = await s.staff('promote', [
      commandOption.user('member', s.sam),
      commandOption.role('to', s.roles.senior),
      commandOption.string('reason', 'a year of steady shifts'),
    ]);
    expect(promoted.text).toContain(`Promoted <@${s.sam}> to <@&${s.roles.senior}>`);
    expect(rolesOf(s.sam)).toContain(s.roles.senior);
    expect(rolesOf(s.sam)).not.toContain(s.roles.trainee);
    await s.h.discord.waitForMessages(s.log, 1);
    expect(s.h.discord.messages(s.log)[0]?.embeds[0]?.title).toBe('Promotion');

    const demoted = await s.staff('demote', [
      commandOption.user('member', s.sam),
      commandOption.role('to', s.roles.moderator),
    ]);
    expect(demoted.text).toContain(`Demoted <@${s.sam}> to <@&${s.roles.moderator}>`);
    expect(rolesOf(s.sam)).toContain(s.roles.moderator);
    expect(rolesOf(s.sam)).not.toContain(s.roles.senior);
    const shown = await history(s.sam);
    expect(shown).toContain(`**Promoted** to <@&${s.roles.senior}> by <@${s.mia}>: a year of steady shifts`);
    expect(shown).toContain(`**Demoted** to <@&${s.roles.moderator}>`);
    expect(shown.indexOf('Demoted')).toBeLessThan(shown.indexOf('Promoted'));
  });

  it('refuses a rank role above the manager, and changes nothing', async () => {
    const refused = await s.staff(
      'promote',
      [commandOption.user('member', s.sam), commandOption.role('to', s.roles.senior)],
      s.leo,
    );
    expect(refused.text).toContain(`<@&${s.roles.senior}> is not below your highest role`);
    expect(refused.text).toContain('Nothing was changed.');
    expect(rolesOf(s.sam)).toContain(s.roles.trainee);
    expect(rolesOf(s.sam)).not.toContain(s.roles.senior);
    expect(s.h.discord.messages(s.log)).toHaveLength(0);
    // Below Leo's highest role, the same promotion is his to make.
    const allowed = await s.staff(
      'promote',
      [commandOption.user('member', s.sam), commandOption.role('to', s.roles.moderator)],
      s.leo,
    );
    expect(allowed.text).toContain('Promoted');
  });

  it('refuses a target above the manager, for an infraction and a promotion alike', async () => {
    const infraction = await s.staff(
      'infraction',
      [
        commandOption.user('member', s.mia),
        commandOption.string('type', 'warning'),
        commandOption.string('reason', 'x'),
      ],
      s.leo,
    );
    expect(infraction.text).toContain(`<@${s.mia}>'s highest role (<@&${s.roles.managers}>) is not below yours`);
    expect(infraction.text).toContain('Nothing was recorded.');
    const demote = await s.staff(
      'demote',
      [commandOption.user('member', s.mia), commandOption.role('to', s.roles.trainee)],
      s.leo,
    );
    expect(demote.text).toContain('is not below yours');
    expect(rolesOf(s.mia)).toContain(s.roles.managers);
    expect(await history(s.mia)).toContain('No infractions or promotions.');
  });

  it('re-checks at the moment of acting: a rank role moved above the manager since is refused', async () => {
    // An admin drags Moderator above Leo's role after the ladder was set.
    s.h.discord.editRole(s.h.guild.id, s.roles.moderator, { position: 3 });
    const refused = await s.staff(
      'promote',
      [commandOption.user('member', s.sam), commandOption.role('to', s.roles.moderator)],
      s.leo,
    );
    expect(refused.text).toContain(`<@&${s.roles.moderator}> is not below your highest role`);
    expect(rolesOf(s.sam)).not.toContain(s.roles.moderator);
  });

  it('records nothing as done when Discord refuses the role change, and leaves the roles as they were', async () => {
    s.h.discord.failRequests({ status: 403, match: /\/members\/\d+\/roles\//, count: 1 });
    const refused = await s.staff('promote', [
      commandOption.user('member', s.sam),
      commandOption.role('to', s.roles.moderator),
    ]);
    expect(refused.text).toContain('Discord refused to change');
    expect(refused.text).toContain('nothing was changed or recorded');
    expect(rolesOf(s.sam)).toContain(s.roles.trainee);
    expect(rolesOf(s.sam)).not.toContain(s.roles.moderator);
    expect(s.h.discord.messages(s.log)).toHaveLength(0);
    expect(await history(s.sam)).toContain('No infractions or promotions.');
  });

  it('undoes a half-made change when Discord refuses to take the old rank role', async () => {
    // The new role is given, then taking the old one is refused.
    s.h.discord.failRequests({ status: 403, match: new RegExp(`/roles/${s.roles.trainee}$`), count: 1 });
    const refused = await s.staff('promote', [
      commandOption.user('member', s.sam),
      commandOption.role('to', s.roles.moderator),
    ]);
    expect(refused.text).toContain('nothing was changed or recorded');
    await s.h.discord.waitFor(() => !rolesOf(s.sam).includes(s.roles.moderator), 10_000, 'the new role taken back');
    expect(rolesOf(s.sam)).toContain(s.roles.trainee);
    expect(await history(s.sam)).toContain('No infractions or promotions.');
  });
});
