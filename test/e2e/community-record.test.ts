import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { autocomplete, buttonClick } from '../../fakes/discord/index.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { commandOption, startAdminHarness, type AdminHarness } from './admin-harness.js';

const PLAYER = { robloxId: '2391045817', name: 'SpeedyRacer_09' };
const created = SAMPLE_DELIVERIES['case.created'].data.case;

/** A case.created of the sample's player, numbered `number`, made `daysAgo` days before now. */
function caseOf(number: number, type: string, daysAgo: number, reason = `reason ${number}`) {
  return {
    event: 'case.created' as const,
    data: {
      case: { ...created, number, type, reason, target: PLAYER, createdAt: Date.now() - daysAgo * 86_400_000 },
    },
  };
}

/** /record and /case lookup end to end: deliveries through the intake, the record's writer, the reply. */
describe('the community record', () => {
  let h: AdminHarness;
  let webhookId = '';

  beforeEach(async () => {
    h = await startAdminHarness();
    await h.setup(h.service.issueKey());
    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
  });

  afterEach(async () => {
    await h.stop();
  });

  const lookup = (player: string, as: 'admin' | 'member' = 'admin') =>
    h.run('case', 'lookup', [commandOption.string('player', player)], as);

  /** Waits until the record's writer has merged `count` cases of the player. */
  const recorded = (count: number) =>
    h.discord.waitFor(
      async () =>
        (await h.bot.store.community.caseTotals(h.guild.id, PLAYER.robloxId)).reduce((n, row) => n + row.count, 0) ===
        count,
      10_000,
      `${count} cases recorded`,
    );

  it("answers an admin with a player's cases newest first, voided ones marked, user text escaped, paged", async () => {
    for (let number = 1; number <= 11; number += 1) {
      await h.service.deliver(webhookId, caseOf(number, number % 3 === 0 ? 'kick' : 'warn', 30 - number));
    }
    await h.service.deliver(webhookId, caseOf(12, 'ban', 0, 'griefing **everyone** <@&1> @everyone'));
    const voided = SAMPLE_DELIVERIES['case.voided'].data.case;
    await h.service.deliver(webhookId, {
      event: 'case.voided',
      data: { case: { ...voided, number: 11, type: 'warn', target: PLAYER, voidedAt: Date.now() } },
    });
    await recorded(12);

    const answer = await lookup('speedyracer_09');
    expect(answer.ephemeral).toBe(true);
    const [embed] = answer.outcome.reply?.embeds ?? [];
    expect(embed?.title).toBe('SpeedyRacer\\_09 (2391045817): 12 cases');
    const lines = (embed?.description ?? '').split('\n');
    expect(lines[0]).toBe('8 warn (1 voided) · 3 kick · 1 ban');
    expect(lines[2]).toMatch(
      /^`#12` \*\*ban\*\* <t:\d+:d> by Mira: griefing \\\*\\\*everyone\\\*\\\* <@&1> @everyone$/,
    );
    expect(lines[3]).toMatch(/^`#11` \*\*warn\*\* <t:\d+:d> by Mira · \*\*voided\*\* <t:\d+:d>: reason 11$/);
    expect(lines.slice(2).map((line) => /^`#(\d+)`/.exec(line)?.[1])).toEqual([
      '12',
      '11',
      '10',
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
      '3',
    ]);
    expect(embed?.footer?.text).toBe('Page 1 of 2, newest first');
    // Nobody is pinged by a reason that names a role or everyone.
    expect(answer.outcome.reply?.allowed_mentions).toEqual({ parse: [] });

    const reply = answer.outcome.reply;
    if (!reply) throw new Error('no reply');
    const older = await h.discord.dispatchInteraction(
      buttonClick({ customId: 'case:page:2391045817:2', message: reply, as: 'admin', guildId: h.guild.id }),
    );
    const page2 = older.reply?.embeds[0]?.description ?? '';
    expect(
      page2
        .split('\n')
        .slice(2)
        .map((line) => /^`#(\d+)`/.exec(line)?.[1]),
    ).toEqual(['2', '1']);

    const suggestions = await h.discord.dispatchInteraction(
      autocomplete({ name: 'case', subcommand: 'lookup', focused: 'player', typed: 'SPEED', guildId: h.guild.id }),
      { settle: 'callback' },
    );
    expect(suggestions.callback.data).toEqual({
      choices: [{ name: 'SpeedyRacer_09 (2391045817)', value: '2391045817' }],
    });

    const unknown = await lookup('NobodyAtAll');
    expect(unknown.text).toBe("No player named or numbered “NobodyAtAll” has a case in this server's record.");
  });

  it('refuses members until an admin names a staff role they hold, and sets the retention', async () => {
    await h.service.deliver(webhookId, caseOf(1, 'warn', 1));
    await recorded(1);

    const refused = await lookup(PLAYER.robloxId, 'member');
    expect(refused.ephemeral).toBe(true);
    expect(refused.text).toBe(
      "You need the Manage Server permission to read this server's record (an admin can let a staff role read it with /record staff-role).",
    );
    const suggestions = await h.discord.dispatchInteraction(
      autocomplete({
        name: 'case',
        subcommand: 'lookup',
        focused: 'player',
        typed: 'S',
        as: 'member',
        guildId: h.guild.id,
      }),
      { settle: 'callback' },
    );
    expect(suggestions.callback.data).toEqual({ choices: [] });

    const moderators = h.guild.roles['Moderators'] ?? '';
    const set = await h.run('record', 'staff-role', [commandOption.role('role', moderators)]);
    expect(set.text).toBe(
      `Members of <@&${moderators}> may now read this server's record (/case lookup), as admins may.`,
    );
    expect((await lookup(PLAYER.robloxId, 'member')).text).toBe(
      `You need the Manage Server permission or the <@&${moderators}> role to read this server's record.`,
    );
    h.discord.grantRole(h.guild.id, h.discord.users.member.id, moderators);
    const allowed = await lookup(PLAYER.robloxId, 'member');
    expect(allowed.outcome.reply?.embeds[0]?.title).toBe('SpeedyRacer\\_09 (2391045817): 1 case');

    const retention = await h.run('record', 'retention', [commandOption.integer('days', 30)]);
    expect(retention.text).toBe(
      "This server's record is now kept 30 days: anything older goes at the next hourly sweep.",
    );
    expect(await h.bot.store.community.settingsOf(h.guild.id)).toEqual({ retentionDays: 30, staffRoleId: moderators });
    const byMember = await h.run('record', 'retention', [commandOption.integer('days', 1)], 'member');
    expect(byMember.text).toBe('You need the Manage Server permission to use this command.');
  });
});
