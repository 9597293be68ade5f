import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import type { FakeMessage } from '../../../../fakes/discord/index.js';
import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { clickButton } from '../../../helpers/click-button.js';
import { caseCreated, MINUTE } from './conduct-scene.js';

/**
 * The conduct guard end to end: /conduct chooses the channel and role, the service's deliveries go through the
 * intake and the record's writer, the guard posts one alert and edits it as the burst grows, and its buttons answer
 * only the chosen role's members, never the member it is about, each click audited.
 */
describe('the conduct guard', () => {
  let h: AdminHarness;
  let webhookId = '';
  let roleId = '';
  let overseer = '';
  let moderator = '';

  beforeEach(async () => {
    h = await startAdminHarness({
      roles: [{ name: 'Oversight' }],
      timings: { record: { writeEveryMs: 50 }, conduct: { judgeEveryMs: 50, alertsEveryMs: 100 } },
    });
    webhookId = await registerEveryEvent(h);
    roleId = h.guild.roles['Oversight'] ?? '';
    overseer = h.discord.addMember(h.guild.id, { username: 'overseer', roleIds: [roleId] });
    // The moderator the alert is about holds the role too: that is no licence to answer it.
    moderator = h.discord.addMember(h.guild.id, { username: 'mod', roleIds: [roleId] });
  });

  afterEach(async () => {
    await h.stop();
  });

  /** The alert in #general once it shows `cases` cases. */
  const alertShowing = async (cases: number): Promise<FakeMessage> => {
    let found: FakeMessage | undefined;
    await h.discord.waitFor(
      () => {
        found = h.discord
          .messages(h.channel('general'))
          .find((message) => message.embeds[0]?.footer?.text?.startsWith('Conduct guard'));
        return (found?.embeds[0]?.description?.match(/^• /gm) ?? []).length === cases;
      },
      15_000,
      `an alert of ${cases} cases`,
    );
    if (!found) throw new Error('no alert');
    return found;
  };

  it('posts one alert per burst, edits it as it grows, and lets only the role answer it', async () => {
    const set = await h.run('conduct', 'channel', [commandOption.channel('channel', h.channel('general'))]);
    expect(set.text).toContain(`<#${h.channel('general')}>`);
    await h.run('conduct', 'role', [commandOption.role('role', roleId)]);
    const by = { discordId: moderator, name: 'Mod' };
    const from = Date.now() - 20 * MINUTE;
    for (let number = 1; number <= 5; number += 1) {
      await h.service.deliver(webhookId, caseCreated(number, from + number * MINUTE, { moderator: by }));
    }

    const alert = await alertShowing(5);
    expect(alert.content).toBe(`<@&${roleId}>`);
    expect(alert.embeds[0]?.title).toBe('Conduct: 5 bans or kicks by one moderator (burst: 5 within 10 min)');
    expect(alert.embeds[0]?.description).toContain(`Moderator: <@${moderator}>`);

    // A member without the role, and the moderator it is about, are refused; nothing changes.
    const stranger = await clickButton(h.discord, h.guild.id, alert, 'Acknowledge', 'member');
    expect(stranger.reply?.content).toBe(`Only members with <@&${roleId}> can answer conduct alerts.`);
    const self = await clickButton(h.discord, h.guild.id, alert, 'Dismiss', { userId: moderator });
    expect(self.reply?.content).toBe('This alert is about you: another member of the role answers it.');

    const acknowledged = await clickButton(h.discord, h.guild.id, alert, 'Acknowledge', { userId: overseer });
    expect(acknowledged.reply?.content).toBe('Acknowledged: the alert says so.');
    await h.discord.waitFor(
      () => (h.discord.messages(h.channel('general'))[0]?.embeds[0]?.description ?? '').includes(`by <@${overseer}>`),
      10_000,
      'the alert to say who acknowledged it',
    );

    // A sixth ban within the window: the same alert grows.
    await h.service.deliver(webhookId, caseCreated(6, from + 6 * MINUTE, { moderator: by }));
    await alertShowing(6);
    const alerts = h.discord
      .messages(h.channel('general'))
      .filter((message) => message.embeds[0]?.footer?.text?.startsWith('Conduct guard'));
    expect(alerts).toHaveLength(1);

    const audit = await h.bot.store.of(auditModule).latest(h.guild.id, 10);
    const clicks = audit.filter(
      (entry) => entry.action.startsWith('Acknowledge') || entry.action.startsWith('Dismiss'),
    );
    expect(clicks.map(({ result }) => result)).toEqual(['done', 'refused', 'refused']);
    expect(clicks.slice(0, 2).map(({ userId }) => userId)).toEqual([overseer, moderator]);
  }, 60_000);

  it('sets a rule with its burst, refuses a count on a rule that has none, and shows what is set', async () => {
    const set = await h.run('conduct', 'set', [
      commandOption.string('rule', 'bans'),
      commandOption.boolean('on', true),
      commandOption.integer('count', 4),
      commandOption.integer('minutes', 5),
    ]);
    expect(set.text).toBe(
      'Saved: `bans` (on): 4 bans or kicks by one moderator within 5 min. It applies to what staff do from now on.',
    );
    const refused = await h.run('conduct', 'set', [
      commandOption.string('rule', 'off-shift'),
      commandOption.boolean('on', false),
      commandOption.integer('count', 3),
    ]);
    expect(refused.text).toBe('`off-shift` has no count or minutes (only bans and voids do). Nothing was saved.');
    await h.run('conduct', 'set', [commandOption.string('rule', 'sole-staff'), commandOption.boolean('on', true)]);
    const shown = await h.run('conduct', 'show');
    expect(shown.ephemeral).toBe(true);
    expect(shown.text.split('\n')).toEqual([
      'Alerts: off (choose a channel with /conduct channel).',
      'Answered by: members with Manage Server',
      '',
      '• `off-shift` (on): a case by a moderator not on shift at that minute, where the server uses shifts',
      '• `bans` (on): 4 bans or kicks by one moderator within 5 min',
      '• `voids` (on): 5 cases voided by one member within 10 min',
      '• `staff-target` (on): a case against a member who has clocked in as staff',
      '• `sole-staff` (on): a ban while its moderator was the only staff on shift',
    ]);
    // A member without Manage Server is refused every subcommand.
    const member = await h.run('conduct', 'show', [], 'member');
    expect(member.text).toMatch(/Manage Server/);
  }, 60_000);

  it('turns the guard off and on in plain words, and with no role chosen lets only Manage Server answer', async () => {
    expect((await h.run('conduct', 'channel')).text).toBe('The conduct guard is not on.');
    expect((await h.run('conduct', 'role', [commandOption.role('role', roleId)])).text).toBe(
      `Conduct alerts ping <@&${roleId}>, whose members may acknowledge or dismiss them (never an alert about ` +
        'themselves). Alerts already posted keep their ping.',
    );
    expect((await h.run('conduct', 'channel', [commandOption.channel('channel', h.channel('general'))])).text).toBe(
      `Conduct alerts now go to <#${h.channel('general')}>: one message per incident, edited as it grows. ` +
        'Make sure only the staff who oversee moderators can see that channel. ' +
        `<@&${roleId}> is pinged and may acknowledge or dismiss them.`,
    );
    expect((await h.run('conduct', 'role')).text).toBe(
      'No role is pinged by conduct alerts; members with Manage Server may acknowledge or dismiss them.',
    );
    // Refused settings change nothing: the rules stay as they were.
    const before = (await h.run('conduct', 'show')).text;
    expect(before.split('\n').slice(0, 2)).toEqual([
      `Alerts: <#${h.channel('general')}>`,
      'Answered by: members with Manage Server',
    ]);
    const refusals = await Promise.all([
      h.run('conduct', 'set', [commandOption.string('rule', 'swearing'), commandOption.boolean('on', true)]),
      h.run('conduct', 'set', [
        commandOption.string('rule', 'bans'),
        commandOption.boolean('on', true),
        commandOption.integer('count', 1),
      ]),
      h.run('conduct', 'set', [
        commandOption.string('rule', 'voids'),
        commandOption.boolean('on', true),
        commandOption.integer('minutes', 1441),
      ]),
    ]);
    expect(refusals.map((answer) => answer.text)).toEqual([
      'The rules are off-shift, bans, voids, staff-target, sole-staff. Nothing was saved.',
      'Count is 2 to 100. Nothing was saved.',
      'Minutes is 1 to 1440. Nothing was saved.',
    ]);
    expect((await h.run('conduct', 'show')).text).toBe(before);

    const by = { discordId: moderator, name: 'Mod' };
    const from = Date.now() - 20 * MINUTE;
    for (let number = 1; number <= 5; number += 1) {
      await h.service.deliver(webhookId, caseCreated(number, from + number * MINUTE, { moderator: by }));
    }
    const alert = await alertShowing(5);
    // No role: nobody is pinged, and holding the old role is no licence.
    expect(alert.content ?? '').toBe('');
    const overseerClick = await clickButton(h.discord, h.guild.id, alert, 'Acknowledge', { userId: overseer });
    expect(overseerClick.reply?.content).toBe(
      'Only members with Manage Server can answer conduct alerts (an admin can choose a role with /conduct role).',
    );
    const dismissed = await clickButton(h.discord, h.guild.id, alert, 'Dismiss', 'admin');
    expect(dismissed.reply?.content).toBe('Dismissed: the alert says so.');

    expect((await h.run('conduct', 'channel')).text).toBe(
      `The conduct guard is off: no more alerts in <#${h.channel('general')}>. What staff do from now on is not judged.`,
    );
    expect((await h.run('conduct', 'show')).text.split('\n')[0]).toBe(
      'Alerts: off (choose a channel with /conduct channel).',
    );
  }, 60_000);
});
