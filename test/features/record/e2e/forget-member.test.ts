import { afterEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const created = SAMPLE_DELIVERIES['case.created'].data.case;
const shift = SAMPLE_DELIVERIES['shift.started'].data.shift;
const MIRA = created.moderator;
const ALL_TIME = { from: 0, to: Number.MAX_SAFE_INTEGER };

/** Every row of every table of the store, as text. */
async function everyTable(db: EngineDatabase): Promise<Record<string, string>> {
  const names = db.url.startsWith('sqlite')
    ? await db.query<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table'`)
    : await db.query<{ name: string }>(
        `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema()`,
      );
  const tables: Record<string, string> = {};
  for (const { name } of names) tables[name] = JSON.stringify(await db.query(`SELECT * FROM ${name}`));
  return tables;
}

/**
 * /record forget member: a moderator who made a case, went on shift, claimed a modcall card, used commands and was
 * looked up is forgotten: no table names them, their case stays counted (by "a former member"), and the player's,
 * the other moderator's and the server's figures are what they were.
 */
describe.each(STORE_ENGINES)('forgetting a member, on $name', ({ available, create }) => {
  let h: AdminHarness | undefined;
  let db: EngineDatabase | undefined;

  afterEach(async () => {
    await h?.stop();
    await db?.dispose();
  });

  it.skipIf(!available)('leaves no row naming them; their cases and claims still count, others unchanged', async () => {
    db = await create();
    const engine = db;
    h = await startAdminHarness({ storeUrl: engine.url });
    const harness = h;
    const guildId = harness.guild.id;
    const record = harness.bot.store.of(recordModule);
    const { admin, owner } = harness.discord.users;
    const asOwner = { userId: harness.discord.addOwnerMember(guildId) };
    // The admin sets the bot up (audit lines by them), then is the moderator forgotten.
    const webhookId = await registerEveryEvent(harness);
    for (const [event, channel] of [
      ['all', 'general'],
      ['modcall', 'modcalls'],
    ] as const) {
      await harness.run('feed', 'set', [
        commandOption.string('event', event),
        commandOption.channel('channel', harness.channel(channel)),
      ]);
    }
    const player = created.target;
    for (const [number, moderator] of [
      [1, { discordId: admin.id, name: 'Boss' }],
      [2, MIRA],
    ] as const) {
      await harness.service.deliver(webhookId, {
        event: 'case.created',
        data: { case: { ...created, number, moderator, createdAt: Date.now() - number * 1000 } },
      });
    }
    for (const [id, who, name] of [
      [1, admin.id, 'Boss'],
      [2, MIRA.discordId, MIRA.name],
    ] as const) {
      await harness.service.deliver(webhookId, {
        event: 'shift.started',
        data: { shift: { ...shift, id, discordId: who, name, startedAt: Date.now() - 60_000 } },
      });
    }
    await harness.service.deliver(webhookId, {
      event: 'modcall',
      data: { ...SAMPLE_DELIVERIES.modcall.data, at: Date.now() },
    });
    const [card] = await harness.discord.waitForMessages(harness.channel('modcalls'), 1, 10_000);
    if (!card) throw new Error('no modcall card');
    await harness.discord.waitFor(
      async () => (await harness.bot.store.deliveries.statusOf(guildId)).waiting === 0,
      10_000,
      'posted',
    );
    await clickButton(harness.discord, guildId, card, 'Claim');
    await harness.discord.waitFor(
      async () =>
        (await record.openShifts(guildId)).length === 2 &&
        (await record.memberModcalls(guildId, admin.id, ALL_TIME)).claimed === 1 &&
        (await record.caseTotals(guildId, player.robloxId)).reduce((n, row) => n + row.count, 0) === 2,
      10_000,
      'the cases, shifts and claim recorded',
    );
    await harness.run('staff', 'stats', [commandOption.user('member', admin.id)], asOwner);

    const figures = async () => {
      const { byMember, ...server } = await record.modcallResponse(guildId, ALL_TIME);
      return {
        player: await record.caseTotals(guildId, player.robloxId),
        mira: await record.staffCases(guildId, MIRA.discordId, ALL_TIME),
        miraShifts: await record.shiftTotals(guildId, MIRA.discordId, ALL_TIME),
        server,
        claimers: byMember.filter((claimer) => claimer.memberId !== admin.id),
      };
    };
    const before = await figures();
    expect(before.server.claimed).toBe(1);

    const asked = await harness.run('record', 'forget', [commandOption.user('member', admin.id)], asOwner);
    const confirmation = asked.outcome.reply;
    if (!confirmation) throw new Error('no confirmation');
    const counts = confirmation.embeds[0]?.description ?? '';
    expect(counts).toContain('- cases made as moderator: 1 (kept without them)');
    expect(counts).toContain('- shifts: 1 (deleted)');
    expect(counts).toContain('- modcalls claimed or resolved: 1 (kept without them)');
    expect(counts).toContain('- lookups about the member: 1 (kept without them)');
    expect(counts).toMatch(/- audit lines of what the member did or looked up: \d+ \(kept without them\)/);

    await clickButton(harness.discord, guildId, confirmation, 'Forget', asOwner);

    for (const [table, rows] of Object.entries(await everyTable(engine))) {
      expect(rows, table).not.toContain(admin.id);
      expect(rows, table).not.toContain('Boss');
    }
    expect(await figures()).toEqual(before);
    // Their case still counts, by a former member.
    const lookup = await harness.run('case', 'lookup', [commandOption.string('player', player.robloxId)], asOwner);
    expect(lookup.outcome.reply?.embeds[0]?.description).toContain('by a former member');
    const audit = await harness.run('audit', undefined, [], asOwner);
    const lines = audit.outcome.reply?.embeds[0]?.description ?? '';
    expect(lines).toContain('a former member /feed set event:all');
    expect(lines).toMatch(new RegExp(`<@${owner.id}> /record forget: a member \\(\\d+ rows of \\d+ kinds\\) → done`));
  });
});
