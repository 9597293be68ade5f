import { afterEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { downloadFiles } from '../../../helpers/downloaded-files.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const created = SAMPLE_DELIVERIES['case.created'].data.case;
const shift = SAMPLE_DELIVERIES['shift.started'].data.shift;

/**
 * /record mine: any member (no Manage Server, no staff role) sees, ephemerally and as a CSV file, what the bot
 * keeps about their own Discord account in this server, and nothing about anyone else; the lookup is audited.
 */
describe.each(STORE_ENGINES)('/record mine, on $name', ({ available, create }) => {
  let h: AdminHarness | undefined;
  let db: EngineDatabase | undefined;

  afterEach(async () => {
    await h?.stop();
    await db?.dispose();
  });

  it.skipIf(!available)('answers a member with their own rows only, as a CSV, and records the lookup', async () => {
    db = await create();
    h = await startAdminHarness({ storeUrl: db.url });
    const harness = h;
    const guildId = harness.guild.id;
    const { admin, member } = harness.discord.users;
    const webhookId = await registerEveryEvent(harness);
    // The member made a case (about a player) and went on shift; the admin went on shift too.
    await harness.service.deliver(webhookId, {
      event: 'case.created',
      data: {
        case: {
          ...created,
          moderator: { discordId: member.id, name: 'Ana' },
          reason: 'a reason about the player',
          createdAt: Date.now(),
        },
      },
    });
    for (const [id, who, name] of [
      [1, member.id, 'Ana'],
      [2, admin.id, 'Boss'],
    ] as const) {
      await harness.service.deliver(webhookId, {
        event: 'shift.started',
        data: { shift: { ...shift, id, discordId: who, name, startedAt: Date.now() - 60_000 } },
      });
    }
    await harness.discord.waitFor(
      async () => (await harness.bot.store.of(recordModule).openShifts(guildId)).length === 2,
      10_000,
      'both shifts recorded',
    );

    const answer = await harness.run('record', 'mine', [], 'member');
    expect(answer.ephemeral).toBe(true);
    expect(answer.text).toBe(
      'What the bot keeps about your Discord account in this server (only you see this):\n' +
        // Nothing routes them: the case and the member's shift are held, their bodies kept.
        '- deliveries kept with their body: 2\n- cases made as moderator: 1\n- shifts: 1',
    );
    const files = await downloadFiles(answer.outcome.reply);
    expect(files.map((file) => file.name)).toEqual(['mine.csv']);
    const csv = files[0]?.bytes.toString('utf8') ?? '';
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe('what,at,details');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([
      'deliveries kept with their body',
      'deliveries kept with their body',
      'cases made as moderator',
      'shifts',
    ]);
    expect(csv).toContain('moderator_name=Ana');
    expect(csv).toContain('member_name=Ana');
    // Nothing of anyone else: not the player the case was about, nor its reason, nor the admin's shift.
    expect(csv).not.toContain(created.target.robloxId);
    expect(csv).not.toContain(created.target.name);
    expect(csv).not.toContain('a reason about the player');
    expect(csv).not.toContain('Boss');

    const audit = await harness.run('audit', undefined, [commandOption.string('kind', 'lookup')]);
    expect(audit.outcome.reply?.embeds[0]?.description).toMatch(new RegExp(`<@${member.id}> /record mine → done$`));
  });
});
