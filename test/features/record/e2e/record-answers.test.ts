import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { commandOption, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { clickButton } from '../../../helpers/click-button.js';

/**
 * /record's answers at the edges a community meets first: a member the bot keeps nothing about, a forgetting
 * cancelled (nothing deleted) and a confirmation clicked again once done, a retention of one day, and reading the
 * record given back to admins alone.
 */
describe('/record at its edges', () => {
  let h: AdminHarness;

  beforeEach(async () => {
    h = await startAdminHarness();
  });

  afterEach(async () => {
    await h.stop();
  });

  it('tells a new member the bot keeps nothing about them, with no file', async () => {
    const zoe = h.discord.addMember(h.guild.id, { username: 'zoe' });
    expect((await h.run('record', 'forget', [commandOption.user('member', zoe)])).text).toBe(
      `The bot keeps nothing that names <@${zoe}> here.`,
    );
    const mine = await h.run('record', 'mine', [], { userId: zoe });
    expect(mine.ephemeral).toBe(true);
    expect(mine.text).toBe('The bot keeps nothing about your Discord account in this server.');
    expect(JSON.stringify(mine.outcome.responses)).not.toContain('mine.csv');
  });

  it('forgets nothing on Cancel, and says so when a confirmation is clicked again after the forgetting', async () => {
    const zoe = h.discord.addMember(h.guild.id, { username: 'zoe' });
    // Her own lookup is audited: a line that names her.
    await h.run('record', 'mine', [], { userId: zoe });
    const linesOf = async () =>
      (await h.bot.store.of(auditModule).latest(h.guild.id, 50)).filter((entry) => entry.userId === zoe).length;
    expect(await linesOf()).toBe(1);

    const askConfirmation = async () => {
      const asked = await h.run('record', 'forget', [commandOption.user('member', zoe)]);
      const confirmation = asked.outcome.reply;
      if (!confirmation) throw new Error('no confirmation');
      return confirmation;
    };
    const first = await askConfirmation();
    const cancelled = await clickButton(h.discord, h.guild.id, first, 'Cancel');
    expect(JSON.stringify(cancelled.callback)).toContain('Nothing was forgotten.');
    expect(await linesOf()).toBe(1);

    const second = await askConfirmation();
    const forgotten = await clickButton(h.discord, h.guild.id, second, 'Forget');
    expect(JSON.stringify(forgotten.callback)).toMatch(new RegExp(`Forgot <@${zoe}>: \\d+ rows\\.`));
    expect(await linesOf()).toBe(0);
    // The first confirmation, still on screen elsewhere, clicked once she is gone: nothing left to forget.
    const again = await clickButton(h.discord, h.guild.id, second, 'Forget');
    expect(JSON.stringify(again.callback)).toContain(`Nothing named <@${zoe}> any more.`);
  });

  it('keeps the record one day when asked, and gives reading it back to admins alone', async () => {
    expect((await h.run('record', 'retention', [commandOption.integer('days', 1)])).text).toBe(
      "This server's record is now kept 1 day: anything older goes at the next hourly sweep.",
    );
    await h.run('record', 'staff-role', [commandOption.role('role', h.guild.staffRoleId)]);
    expect((await h.run('case', 'lookup', [commandOption.string('player', '1')], 'member')).text).toBe(
      "No player named or numbered “1” has a case in this server's record.",
    );
    expect((await h.run('record', 'staff-role')).text).toBe(
      "Only members with Manage Server may read this server's record now.",
    );
    expect((await h.run('case', 'lookup', [commandOption.string('player', '1')], 'member')).text).toMatch(
      /^You need the Manage Server permission/,
    );
  });
});
