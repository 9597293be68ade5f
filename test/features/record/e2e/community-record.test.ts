import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { autocomplete } from '../../../../fakes/discord/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';
import { downloadFiles } from '../../../helpers/downloaded-files.js';
import { decodePng, pixelsNear } from '../../../helpers/png.js';

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
    webhookId = await registerEveryEvent(h);
  });

  afterEach(async () => {
    await h.stop();
  });

  const lookup = (player: string, as: 'admin' | 'member' = 'admin') =>
    h.run('case', 'lookup', [commandOption.string('player', player)], as);

  /** Waits until the record's writer has merged `count` cases of the player, `voided` of them voided. */
  const recorded = (count: number, voided = 0) =>
    h.discord.waitFor(
      async () => {
        const totals = await h.bot.store.of(recordModule).caseTotals(h.guild.id, PLAYER.robloxId);
        const sum = (of: (row: (typeof totals)[number]) => number) => totals.reduce((n, row) => n + of(row), 0);
        return sum((row) => row.count) === count && sum((row) => row.voided) === voided;
      },
      10_000,
      `${count} cases recorded, ${voided} voided`,
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
    await recorded(12, 1);

    const answer = await lookup('speedyracer_09');
    expect(answer.ephemeral).toBe(true);
    const [embed] = answer.outcome.reply?.embeds ?? [];
    expect(embed?.title).toBe('SpeedyRacer\\_09 (2391045817): 12 cases');
    const lines = (embed?.description ?? '').split('\n');
    expect(lines[0]).toBe('8 warns (1 voided) · 3 kicks · 1 ban');
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
    const older = await clickButton(h.discord, h.guild.id, reply, 'Older');
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
    expect(await h.bot.store.of(recordModule).settingsOf(h.guild.id)).toEqual({
      retentionDays: 30,
      staffRoleId: moderators,
    });
    const byMember = await h.run('record', 'retention', [commandOption.integer('days', 1)], 'member');
    expect(byMember.text).toBe('You need the Manage Server permission to use this command.');
  });

  it("answers a member's stats, the leaderboards and the modcall response from cases, shifts and claimed cards", async () => {
    const admin = h.discord.users.admin.id;
    const member = h.discord.users.member.id;
    const hour = 3_600_000;
    const start = Date.now() - 5 * hour;
    const shiftOf = (id: number, discordId: string, name: string, hours: number, ended: boolean) => ({
      event: ended ? ('shift.ended' as const) : ('shift.started' as const),
      data: {
        shift: {
          id,
          discordId,
          name,
          robloxId: String(id),
          startedAt: start,
          endedAt: ended ? start + hours * hour : null,
          seconds: ended ? hours * 3600 : null,
        },
      },
    });
    // Mira's shift ends before its start arrives; Sam's runs one hour.
    await h.service.deliver(webhookId, shiftOf(1, admin, 'Mira', 2, true));
    await h.service.deliver(webhookId, shiftOf(1, admin, 'Mira', 2, false));
    await h.service.deliver(webhookId, shiftOf(2, member, 'Sam', 1, false));
    await h.service.deliver(webhookId, shiftOf(2, member, 'Sam', 1, true));
    const byAdmin = (number: number, type: string) => {
      const made = caseOf(number, type, 0);
      return { ...made, data: { case: { ...made.data.case, moderator: { discordId: admin, name: 'Mira' } } } };
    };
    await h.service.deliver(webhookId, byAdmin(1, 'warn'));
    await h.service.deliver(webhookId, byAdmin(2, 'warn'));
    await h.service.deliver(webhookId, byAdmin(3, 'kick'));
    const voided = SAMPLE_DELIVERIES['case.voided'].data.case;
    await h.service.deliver(webhookId, {
      event: 'case.voided',
      data: { case: { ...voided, number: 3, type: 'kick', target: PLAYER, voidedAt: Date.now() } },
    });

    // A modcall: its card posted, claimed and resolved by the admin.
    await h.run('feed', 'set', [
      commandOption.string('event', 'modcall'),
      commandOption.channel('channel', h.channel('modcalls')),
    ]);
    await h.service.deliver(webhookId, {
      event: 'modcall',
      data: { ...SAMPLE_DELIVERIES.modcall.data, at: Date.now() },
    });
    const [card] = await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
    if (!card) throw new Error('no modcall card');
    // The cases and shifts are held (no channel is set for them); the modcall card is confirmed.
    await h.discord.waitFor(
      async () => (await h.bot.store.deliveries.statusOf(h.guild.id)).waiting === 0,
      10_000,
      'confirmed',
    );
    for (const button of ['Claim', 'Resolve']) await clickButton(h.discord, h.guild.id, card, button);
    await recorded(3, 1);
    await h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).memberModcalls(h.guild.id, admin, { from: 0, to: Date.now() + 1 }))
          .resolved === 1,
      10_000,
      'the claim recorded',
    );

    // Not the default (this month): a shift begun five hours ago may be last month's on the 1st.
    const stats = await h.run('staff', 'stats', [
      commandOption.user('member', admin),
      commandOption.string('period', '30-days'),
    ]);
    expect(stats.ephemeral).toBe(true);
    const [embed] = stats.outcome.reply?.embeds ?? [];
    expect(embed?.title).toBe('Staff stats, the last 30 days');
    expect(embed?.fields?.map((field) => [field.name, field.value.split(/\ntime to claim: /)[0]])).toEqual([
      ['Cases (3)', '2 warns · 1 kick (1 voided)'],
      ['Shifts', '1 shift, 2.0 h on duty'],
      ['Modcalls', 'claimed 1, resolved 1'],
    ]);
    expect(embed?.fields?.[2]?.value).toMatch(/\ntime to claim: median \d+ s, p90 \d+ s$/);

    const shifts = await h.run('leaderboard', 'shifts', [commandOption.string('period', 'all')]);
    expect(shifts.outcome.reply?.embeds[0]).toMatchObject({
      title: 'Hours on shift, all time',
      description: `**1.** <@${admin}> (Mira): 2.0 h\n**2.** <@${member}> (Sam): 1.0 h\n\nYou: #1 of 2, 2.0 h`,
    });
    const cases = await h.run('leaderboard', 'cases', [], 'admin');
    expect(cases.outcome.reply?.embeds[0]?.description).toBe(`**1.** <@${admin}> (Mira): 2\n\nYou: #1 of 1, 2`);

    const moderators = h.guild.roles['Moderators'] ?? '';
    h.discord.grantRole(h.guild.id, member, moderators);
    const ofRole = await h.run('leaderboard', 'shifts', [commandOption.role('role', moderators)]);
    expect(ofRole.outcome.reply?.embeds[0]?.description).toBe(
      `**1.** <@${member}> (Sam): 1.0 h\n\nYou: #1 of 2 (everyone), 2.0 h`,
    );

    const response = await h.run('staff', 'response', [commandOption.string('period', '30-days')]);
    const lines = (response.outcome.reply?.embeds[0]?.description ?? '').split('\n');
    expect(lines[0]).toBe('**1** call · **1** claimed · **1** resolved · **0** never claimed');
    expect(lines.slice(3)).toEqual([
      '',
      '**Who claimed them**',
      `<@${admin}>: 1 · ${lines[1]?.replace('Time to claim: ', '') ?? ''}`,
    ]);

    const refused = await h.run('leaderboard', 'modcalls', [], 'member');
    expect(refused.text).toMatch(/^You need the Manage Server permission to read this server's record/);
  });

  it('counts a card of three calls claimed once as one claim in /leaderboard and /staff, and its three calls', async () => {
    const admin = h.discord.users.admin.id;
    await h.run('feed', 'set', [
      commandOption.string('event', 'modcall'),
      commandOption.channel('channel', h.channel('modcalls')),
    ]);
    const waiting = () =>
      h.discord.waitFor(
        async () => (await h.bot.store.deliveries.statusOf(h.guild.id)).waiting === 0,
        10_000,
        'the call handled',
      );
    // One caller calls three times within minutes: one card, called 3 times.
    const first = Date.now() - 3 * 60_000;
    for (const i of [0, 1, 2]) {
      await h.service.deliver(webhookId, {
        event: 'modcall',
        data: { ...SAMPLE_DELIVERIES.modcall.data, at: first + i * 60_000 },
      });
      await waiting();
    }
    const [card, ...others] = h.discord.messages(h.channel('modcalls'));
    if (!card) throw new Error('no modcall card');
    expect(others).toEqual([]);
    expect(JSON.stringify(card.embeds)).toContain('Called 3 times');
    const response = async () => {
      const answer = await h.run('staff', 'response', [commandOption.string('period', '30-days')]);
      return (answer.outcome.reply?.embeds[0]?.description ?? '').split('\n');
    };
    // Unclaimed: three calls on one card, never claimed once (not three times).
    await h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).modcallResponse(h.guild.id, { from: 0, to: Date.now() })).calls === 3,
      10_000,
      'the three calls recorded',
    );
    expect((await response())[0]).toBe(
      '**3** calls on **1** card · **0** claimed · **0** resolved · **1** never claimed',
    );

    await clickButton(h.discord, h.guild.id, card, 'Claim');
    await h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).memberModcalls(h.guild.id, admin, { from: 0, to: Date.now() })).claimed > 0,
      10_000,
      'the claim recorded',
    );
    const lines = await response();
    expect(lines[0]).toBe('**3** calls on **1** card · **1** claimed · **0** resolved · **0** never claimed');
    // One time to claim: its median and p90 are the same one.
    expect(lines[1]).toMatch(/^Time to claim: median (.+), p90 \1$/);
    expect(lines.slice(3)).toEqual([
      '',
      '**Who claimed them**',
      `<@${admin}>: 1 · ${lines[1]?.replace('Time to claim: ', '') ?? ''}`,
    ]);
    const board = await h.run('leaderboard', 'modcalls', [commandOption.string('period', 'all')]);
    expect(board.outcome.reply?.embeds[0]?.description).toBe(`**1.** <@${admin}>: 1\n\nYou: #1 of 1, 1`);
    const stats = await h.run('staff', 'stats', [
      commandOption.user('member', admin),
      commandOption.string('period', '30-days'),
    ]);
    const modcalls = stats.outcome.reply?.embeds[0]?.fields?.find((field) => field.name === 'Modcalls')?.value;
    expect(modcalls).toMatch(/^claimed 1, resolved 0\ntime to claim: median (.+), p90 \1$/);
  });

  it("tells a new case's card of the player's earlier cases, never the first's, voided ones left out", async () => {
    await h.run('feed', 'set', [
      commandOption.string('event', 'case.created'),
      commandOption.channel('channel', h.channel('cases')),
    ]);
    await h.service.deliver(webhookId, caseOf(1, 'warn', 4));
    await h.service.deliver(webhookId, caseOf(2, 'kick', 3));
    const voided = SAMPLE_DELIVERIES['case.voided'].data.case;
    await h.service.deliver(webhookId, {
      event: 'case.voided',
      data: { case: { ...voided, number: 2, type: 'kick', target: PLAYER, voidedAt: Date.now() } },
    });
    await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    // The void merged too (the record lags the feed by about a second): only then is case 3 sent.
    await h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).caseTotals(h.guild.id, PLAYER.robloxId)).some((row) => row.voided === 1),
      10_000,
      'the void recorded',
    );
    await h.service.deliver(webhookId, caseOf(3, 'ban', 0));
    // Cases 1 and 2 may have gone in one message or two: wait for case 3's card itself.
    const embeds = () => h.discord.messages(h.channel('cases')).flatMap((message) => message.embeds);
    await h.discord.waitFor(() => embeds().some((embed) => embed.title?.startsWith('Case #3 ')), 10_000, 'case 3');
    const earlierOn = (number: number) =>
      embeds()
        .find((embed) => embed.title?.startsWith(`Case #${number} `))
        ?.fields?.find((field) => field.name === 'Earlier')?.value;
    const fourDaysAgo = Math.floor((Date.now() - 4 * 86_400_000) / 1000);
    expect(earlierOn(1)).toBeUndefined();
    expect(earlierOn(3)).toMatch(/^1 warn · last <t:(\d+):R>$/);
    expect(Number(/<t:(\d+):R>/.exec(earlierOn(3) ?? '')?.[1])).toBeCloseTo(fourDaysAgo, -2);
  });

  it('attaches a chart of the hours per day and of the leaderboard, the numbers in text beside it', async () => {
    const admin = h.discord.users.admin.id;
    const member = h.discord.users.member.id;
    const today = Math.floor(Date.now() / 86_400_000) * 86_400_000;
    const shiftOf = (id: number, discordId: string, name: string, startedAt: number, hours: number) => ({
      event: 'shift.ended' as const,
      data: {
        shift: {
          id,
          discordId,
          name,
          robloxId: String(id),
          startedAt,
          endedAt: startedAt + hours * 3_600_000,
          seconds: hours * 3600,
        },
      },
    });
    // Mira: 2 h that began three days ago (late in the day: counted on the day it began) and 1 h today.
    await h.service.deliver(webhookId, shiftOf(1, admin, 'Mira', today - 2 * 86_400_000 - 3_600_000, 2));
    await h.service.deliver(webhookId, shiftOf(2, admin, 'Mira', today, 1));
    await h.service.deliver(webhookId, shiftOf(3, member, 'Sam', today, 0.5));
    await h.discord.waitFor(
      async () =>
        (await h.bot.store.of(recordModule).leaderboard(h.guild.id, 'shifts', { from: 0, to: today + 1e10 })).length ===
        2,
      10_000,
      'the shifts recorded',
    );

    const stats = await h.run('staff', 'stats', [
      commandOption.user('member', admin),
      commandOption.string('period', '30-days'),
    ]);
    const [embed, chart] = stats.outcome.reply?.embeds ?? [];
    expect(embed?.fields?.[1]).toEqual({ name: 'Shifts', value: '2 shifts, 3.0 h on duty' });
    const label = (ms: number) =>
      new Date(ms)
        .toLocaleDateString('en-GB', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' })
        .replace(',', '');
    expect(chart).toEqual({
      type: 'rich',
      title: 'Hours on duty per day (UTC)',
      description: `${label(today - 3 * 86_400_000)}: 2.0 h\n${label(today)}: 1.0 h`,
      image: { url: 'attachment://hours.png' },
    });
    const [hours] = await downloadFiles(stats.outcome.reply);
    expect(hours?.name).toBe('hours.png');
    expect(hours?.contentType).toBe('image/png');
    const image = decodePng(hours?.bytes ?? Buffer.alloc(0));
    expect([image.width, image.height]).toEqual([800, 400]);
    expect(pixelsNear(image, '#5865f2', 8)).toBeGreaterThan(1000);

    // One day: nothing to draw, no file.
    const oneDay = await h.run('staff', 'stats', [
      commandOption.user('member', admin),
      commandOption.string('period', 'today'),
    ]);
    expect(oneDay.outcome.reply?.embeds).toHaveLength(1);
    expect(oneDay.outcome.reply?.api.attachments).toEqual([]);

    const board = await h.run('leaderboard', 'shifts', [commandOption.string('period', 'all')]);
    expect(board.outcome.reply?.embeds[0]?.description).toBe(
      `**1.** <@${admin}> (Mira): 3.0 h\n**2.** <@${member}> (Sam): 0.5 h\n\nYou: #1 of 2, 3.0 h`,
    );
    expect(board.outcome.reply?.embeds[0]?.image).toEqual({ url: 'attachment://leaderboard.png' });
    const [bars] = await downloadFiles(board.outcome.reply);
    expect(bars?.name).toBe('leaderboard.png');
    expect(decodePng(bars?.bytes ?? Buffer.alloc(0))).toMatchObject({ width: 800, height: 400 });
    expect(h.discord.violations).toEqual([]);
  });
});
