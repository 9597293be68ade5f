import { PermissionFlagsBits } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';
import { downloadFiles } from '../../../helpers/downloaded-files.js';
import { inspectHtml } from '../integration/inspect-html.js';

const PLAYER = { robloxId: '2391045817', name: `Speedy "Racer" <09>` };
const MINUTE = 60_000;
/** The game server of the harness's webhook: its deliveries' server. */
const SERVER = '4810000000001';
const REASON = 'ramming at spawn <script>alert(document.cookie)</script>';
const EVIDENCE = ['https://cdn.example.test/clips/1042.mp4', 'javascript:alert(document.domain)'];

/** /case evidence end to end: deliveries through the intake, the record's writer, a modcall card claimed, the reply. */
describe('/case evidence', () => {
  let h: AdminHarness;
  let webhookId = '';

  beforeEach(async () => {
    h = await startAdminHarness();
    webhookId = await registerEveryEvent(h);
  });

  afterEach(async () => {
    await h.stop();
  });

  const evidenceOf = (number: number, as: 'admin' | 'member' = 'admin') =>
    h.run('case', 'evidence', [commandOption.integer('number', number)], as);

  /** A case of the player by the admin, made `minutesAgo` minutes ago. */
  const caseOf = (number: number, minutesAgo: number, reason: string, evidence: unknown) => {
    const created = SAMPLE_DELIVERIES['case.created'].data.case;
    const moderator = { discordId: h.discord.users.admin.id, name: `Mira "the Mod"` };
    const at = Date.now() - minutesAgo * MINUTE;
    return {
      event: 'case.created' as const,
      data: { case: { ...created, number, reason, evidence, target: PLAYER, moderator, createdAt: at } },
    };
  };

  /** The player's call 5 minutes before the case, its card claimed; the admin's shift; a session; an earlier case. */
  async function deliverAroundCase(): Promise<void> {
    const admin = h.discord.users.admin.id;
    const member = h.discord.users.member.id;
    const started = Date.now() - 60 * MINUTE;
    for (const [id, discordId, name] of [
      [1, admin, 'Mira'],
      [2, member, 'Sam'],
    ] as const) {
      await h.service.deliver(webhookId, {
        event: 'shift.started',
        data: {
          shift: { id, discordId, name, robloxId: String(id), startedAt: started, endedAt: null, seconds: null },
        },
      });
    }
    const session = SAMPLE_DELIVERIES['session.started'].data.session;
    await h.service.deliver(webhookId, {
      event: 'session.started',
      data: { session: { ...session, startedAt: Date.now() - 90 * MINUTE, peakPlayers: 24 } },
    });
    await h.service.deliver(webhookId, caseOf(1, 3 * 24 * 60, 'an earlier warning', null));

    await h.run('feed', 'set', [
      commandOption.string('event', 'modcall'),
      commandOption.channel('channel', h.channel('modcalls')),
    ]);
    await h.service.deliver(webhookId, {
      event: 'modcall',
      data: { caller: PLAYER, at: Date.now() - 5 * MINUTE },
    });
    const [card] = await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
    if (!card) throw new Error('no modcall card');
    await h.discord.waitFor(
      async () => (await h.bot.store.deliveries.statusOf(h.guild.id)).waiting === 0,
      10_000,
      'the card confirmed',
    );
    await clickButton(h.discord, h.guild.id, card, 'Claim');

    await h.service.deliver(webhookId, caseOf(2, 0, REASON, EVIDENCE));
    await h.discord.waitFor(
      async () => {
        const found = await h.bot.store.of(recordModule).caseEvidence(h.guild.id, 2);
        return (
          found.kind === 'found' &&
          found.evidence.modcalls[0]?.claimedBy === admin &&
          found.evidence.onShift.length === 2 &&
          found.evidence.session !== undefined &&
          found.evidence.earlierCases.length === 1
        );
      },
      10_000,
      'everything around the case recorded',
    );
  }

  it('answers a reader alone with the joined pack and a file that keeps it, inert and complete', async () => {
    await deliverAroundCase();
    const answer = await evidenceOf(2);
    expect(answer.ephemeral).toBe(true);
    const reply = answer.outcome.reply;
    const embeds = reply?.embeds ?? [];
    expect(embeds.map((embed) => embed.title)).toEqual([
      `Case #2 · warn · server ${SERVER}`,
      `The player's modcalls on server ${SERVER} in the 15 minutes before`,
      expect.stringMatching(/^On shift at <t:\d+:f>$/),
      'Session',
      'Earlier cases of Speedy "Racer" <09> (2391045817)',
    ]);
    // The reason is shown as text (Discord renders no HTML; its markdown is escaped), nobody is pinged.
    expect(embeds[0]?.description).toBe('ramming at spawn <script>alert(document.cookie)</script>');
    expect(reply?.allowed_mentions).toEqual({ parse: [] });
    expect(embeds[1]?.description).toMatch(
      new RegExp(`^<t:\\d+:T>: claimed by <@${h.discord.users.admin.id}> <t:\\d+:T> \\(the moderator\\)$`),
    );
    expect(embeds[2]?.description).toMatch(
      new RegExp(`^The moderator: \\*\\*on shift\\*\\* since <t:\\d+:t> \\(server ${SERVER}\\)\\.`),
    );
    expect(embeds[2]?.description).toContain(`<@${h.discord.users.member.id}> since`);
    expect(embeds[3]?.description).toContain('**Friday night patrol**');
    expect(embeds[3]?.description).toContain('Staff on shift on this server at the case: 2. Most players: 24.');
    expect(embeds[4]?.description).toMatch(/`#1` \*\*warn\*\* <t:\d+:d>: an earlier warning/);
    const buttons = (reply?.components ?? []).flatMap(
      (row) => (row as { components?: Array<{ label?: string }> }).components ?? [],
    );
    expect(buttons.map((button) => button.label)).toEqual(['Share in this channel']);

    const [file, ...others] = await downloadFiles(reply);
    expect(others).toEqual([]);
    expect(file?.name).toBe(`case-${SERVER}-2-evidence.html`);
    const page = await inspectHtml(file?.bytes.toString('utf8') ?? '');
    expect(page.scripts).toBe(0);
    expect(page.handlers).toEqual([]);
    expect(page.requests).toEqual([]);
    expect(page.addresses.map(({ attribute, value, text }) => ({ attribute, value, text }))).toEqual([
      { attribute: 'href', value: EVIDENCE[0], text: EVIDENCE[0] },
    ]);
    expect(page.text).toContain(REASON);
    expect(page.text).toContain('[1] javascript:alert(document.domain) (not a web address: shown, not linked)');
    expect(page.text).toContain(`Speedy "Racer" <09> (Roblox id 2391045817)`);
    expect(page.text).toContain(`by Discord id ${h.discord.users.admin.id} (the moderator)`);
    expect(page.text).toContain('The moderator was on shift');
    expect(page.text).toContain('Friday night patrol');
    expect(page.text).toContain('an earlier warning');

    const unknown = await evidenceOf(99);
    expect(unknown.text).toBe("No case #99 is in this server's record.");
  });

  it('refuses the pack and its Share button to a member who may not read the record, checked again at the click', async () => {
    await deliverAroundCase();
    const refused = await evidenceOf(2, 'member');
    expect(refused.ephemeral).toBe(true);
    expect(refused.text).toBe(
      "You need the Manage Server permission to read this server's record (an admin can let a staff role read it with /record staff-role).",
    );

    // The admin's pack, its button clicked by a member who may not read the record: nothing is posted.
    const pack = (await evidenceOf(2)).outcome.reply;
    if (!pack) throw new Error('no pack');
    const before = h.discord.messages(h.channel('general'));
    const byMember = await clickButton(h.discord, h.guild.id, pack, 'Share in this channel', 'member');
    expect(byMember.reply?.content).toBe(
      "You need the Manage Server permission to read this server's record (an admin can let a staff role read it with /record staff-role).",
    );
    expect(byMember.reply?.flags).toBe(64);
    expect(h.discord.messages(h.channel('general'))).toEqual(before);

    // A staff reader gets the pack; by the time they click, the staff role is another: refused then.
    const moderators = h.guild.roles['Moderators'] ?? '';
    await h.run('record', 'staff-role', [commandOption.role('role', moderators)]);
    h.discord.grantRole(h.guild.id, h.discord.users.member.id, moderators);
    const ofStaff = (await evidenceOf(2, 'member')).outcome.reply;
    if (!ofStaff) throw new Error('no pack for the staff member');
    await h.run('record', 'staff-role', [commandOption.role('role', h.guild.roles['Quiet'] ?? '')]);
    const late = await clickButton(h.discord, h.guild.id, ofStaff, 'Share in this channel', 'member');
    expect(late.reply?.content).toBe(
      `You need the Manage Server permission or the <@&${h.guild.roles['Quiet']}> role to read this server's record.`,
    );
    expect(h.discord.messages(h.channel('general'))).toEqual(before);
  });

  it('shares the pack in the channel for a reader Discord lets post it there, and only then', async () => {
    await deliverAroundCase();
    const member = h.discord.users.member.id;
    const moderators = h.guild.roles['Moderators'] ?? '';
    await h.run('record', 'staff-role', [commandOption.role('role', moderators)]);
    h.discord.grantRole(h.guild.id, member, moderators);
    const pack = (await evidenceOf(2, 'member')).outcome.reply;
    if (!pack) throw new Error('no pack');

    // A reader who may not post files here: Discord would not let them post the pack, nor does the bot.
    const general = h.channel('general');
    const post = PermissionFlagsBits.SendMessages | PermissionFlagsBits.EmbedLinks;
    h.discord.setChannelOverwrite(general, { id: member, type: 1, allow: post });
    const denied = await clickButton(h.discord, h.guild.id, pack, 'Share in this channel', 'member');
    expect(denied.reply?.content).toBe('You cannot post it here: sharing it needs Attach Files in this channel.');
    expect(denied.reply?.flags).toBe(64);

    h.discord.setChannelOverwrite(general, { id: member, type: 1, allow: post | PermissionFlagsBits.AttachFiles });
    const shared = await clickButton(h.discord, h.guild.id, pack, 'Share in this channel', 'member');
    expect(shared.reply?.flags ?? 0).toBe(0);
    expect(shared.reply?.content).toBe(`Evidence pack of case #2, shared by <@${member}>.`);
    expect(shared.reply?.allowed_mentions).toEqual({ parse: [] });
    expect(shared.reply?.embeds.map((embed) => embed.title)).toEqual(pack.embeds.map((embed) => embed.title));
    // The shared copy has no button: everyone in the channel sees it.
    expect(shared.reply?.components ?? []).toEqual([]);
    const [file] = await downloadFiles(shared.reply);
    expect(file?.name).toBe(`case-${SERVER}-2-evidence.html`);
    // Each share is audited, the refused one too.
    await h.discord.waitFor(
      async () => (await h.bot.store.of(auditModule).latest(h.guild.id, 1))[0]?.result === 'done',
      5_000,
      'the share audited',
    );
    const audit = await h.bot.store.of(auditModule).latest(h.guild.id, 2);
    expect(audit.map(({ userId, action, result }) => ({ userId, action, result }))).toEqual([
      { userId: member, action: 'Share in this channel (/case button)', result: 'done' },
      { userId: member, action: 'Share in this channel (/case button)', result: 'refused' },
    ]);
    expect(file?.bytes.toString('utf8')).toContain(
      'ramming at spawn &lt;script&gt;alert(document.cookie)&lt;/script&gt;',
    );
  });
});
