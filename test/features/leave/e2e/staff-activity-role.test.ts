import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';

const shift = SAMPLE_DELIVERIES['shift.ended'].data.shift;
const HOUR = 60 * 60 * 1000;

/**
 * /staff activity role:: only the members Discord says hold the role are listed, each with their own figures,
 * and the answer's title names the role; without it, everyone with a shift is listed.
 */
describe('/staff activity role:', () => {
  let h: AdminHarness;

  beforeEach(async () => {
    h = await startAdminHarness({ roles: [{ name: 'Night Shift' }] });
  });

  afterEach(async () => {
    await h.stop();
  });

  it('lists only the members of the role, and everyone without it', async () => {
    const night = h.guild.roles['Night Shift'] ?? '';
    const owl = h.discord.addMember(h.guild.id, { username: 'owl', roleIds: [h.guild.staffRoleId, night] });
    const lark = h.discord.addMember(h.guild.id, { username: 'lark', roleIds: [h.guild.staffRoleId] });
    const webhookId = await registerEveryEvent(h);
    const ended = Date.now() - HOUR;
    for (const [id, discordId, hours] of [
      [1, owl, 2],
      [2, lark, 3],
    ] as const) {
      await h.service.deliver(webhookId, {
        event: 'shift.ended',
        data: {
          shift: {
            ...shift,
            id,
            discordId,
            name: `member ${id}`,
            startedAt: ended - hours * HOUR,
            endedAt: ended,
            seconds: hours * 3600,
          },
        },
      });
    }
    await h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).shiftTotals(h.guild.id, lark, { from: 0, to: Date.now() + 1 })).count ===
          1 &&
        (await h.bot.store.of(recordModule).shiftTotals(h.guild.id, owl, { from: 0, to: Date.now() + 1 })).count === 1,
      10_000,
      'both shifts recorded',
    );

    const activity = async (options: Parameters<AdminHarness['run']>[2]) => {
      const answer = await h.run('staff', 'activity', options);
      const embed = answer.outcome.reply?.embeds[0];
      return { title: embed?.title, lines: (embed?.description ?? '').split('\n') };
    };
    const period = commandOption.string('period', '30-days');
    const onlyNight = await activity([period, commandOption.role('role', night)]);
    expect(onlyNight.title).toBe(`Staff activity: the last 30 days, <@&${night}>`);
    expect(onlyNight.lines).toEqual([
      // Hours on shift with no case or claim are flagged: the figures come from the record alone.
      '1 member, 1 with something to look at.',
      `<@${owl}> 2.0 h · 1 shift · 0 cases · 0 claims`,
      '  ⚠️ 1 stretch on shift with no action (longest 2 h)',
    ]);
    const everyone = await activity([period]);
    expect(everyone.title).toBe('Staff activity: the last 30 days');
    expect(everyone.lines).toEqual([
      '2 members, 2 with something to look at.',
      `<@${lark}> 3.0 h · 1 shift · 0 cases · 0 claims`,
      '  ⚠️ 1 stretch on shift with no action (longest 3 h)',
      `<@${owl}> 2.0 h · 1 shift · 0 cases · 0 claims`,
      '  ⚠️ 1 stretch on shift with no action (longest 2 h)',
    ]);
  });
});
