import { afterEach, describe, expect, it } from 'vitest';

import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { commandOption, registerEveryEvent, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const PLAYER = { robloxId: '2391045817', name: 'SpeedyRacer_09' };
const OTHER = { robloxId: '77001122', name: 'GhostRider' };
const created = SAMPLE_DELIVERIES['case.created'].data.case;
const ALL_TIME = { from: 0, to: Number.MAX_SAFE_INTEGER };

function caseOf(number: number, target: typeof PLAYER, reason: string) {
  return {
    event: 'case.created' as const,
    data: { case: { ...created, number, target, reason, createdAt: Date.now() - number * 1000 } },
  };
}

/** Every row of every table of the store, as text: what "nothing names them" is checked against. */
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
 * /record forget player: the held-back test. A player with cases, a modcall claimed on its card, a held delivery,
 * a posted card and a lookup of them is forgotten: no table names them any more, and every other figure (the other
 * player's cases, the moderator's, the claimer's) is what it was. Manage Server is checked again at the click.
 */
describe.each(STORE_ENGINES)('forgetting a player, on $name', ({ available, create }) => {
  let h: AdminHarness | undefined;
  let db: EngineDatabase | undefined;

  afterEach(async () => {
    await h?.stop();
    await db?.dispose();
  });

  it.skipIf(!available)('leaves no row naming them and every other figure unchanged', async () => {
    db = await create();
    const engine = db;
    h = await startAdminHarness({ storeUrl: engine.url });
    const harness = h;
    const guildId = harness.guild.id;
    const record = harness.bot.store.of(recordModule);
    const webhookId = await registerEveryEvent(harness);
    for (const [event, channel] of [
      ['case.created', 'cases'],
      ['modcall', 'modcalls'],
    ] as const) {
      await harness.run('feed', 'set', [
        commandOption.string('event', event),
        commandOption.channel('channel', harness.channel(channel)),
      ]);
    }

    // Two cases of the player (each a posted card), one of another player, by the same moderator.
    await harness.service.deliver(webhookId, caseOf(1, PLAYER, 'spawn killing'));
    await harness.service.deliver(webhookId, caseOf(2, PLAYER, 'ramming at spawn'));
    await harness.service.deliver(webhookId, caseOf(3, OTHER, 'exploiting'));
    // A modcall of the player, claimed on its card by the admin.
    await harness.service.deliver(webhookId, {
      event: 'modcall',
      data: { caller: { robloxId: PLAYER.robloxId, name: PLAYER.name }, at: Date.now() },
    });
    const [card] = await harness.discord.waitForMessages(harness.channel('modcalls'), 1, 10_000);
    if (!card) throw new Error('no modcall card');
    await harness.discord.waitFor(
      async () => (await harness.bot.store.deliveries.statusOf(guildId)).waiting === 0,
      10_000,
      'posted',
    );
    await clickButton(harness.discord, guildId, card, 'Claim');
    // A void of the player's case that nothing routes: held, its body kept.
    const voided = SAMPLE_DELIVERIES['case.voided'].data.case;
    await harness.service.deliver(webhookId, {
      event: 'case.voided',
      data: { case: { ...voided, number: 2, target: PLAYER, voidedAt: Date.now() } },
    });
    await harness.discord.waitFor(
      async () => ((await harness.bot.store.deliveries.statusOf(guildId)).unrouted['case.voided'] ?? 0) >= 1,
      10_000,
      'the void held',
    );
    const admin = harness.discord.users.admin.id;
    await harness.discord.waitFor(
      async () =>
        (await record.caseTotals(guildId, PLAYER.robloxId)).reduce((n, row) => n + row.count, 0) === 2 &&
        // The held void merged too: the figures below are read once the writer has nothing left to merge.
        (await record.caseTotals(guildId, PLAYER.robloxId)).reduce((n, row) => n + row.voided, 0) === 1 &&
        (await record.memberModcalls(guildId, admin, ALL_TIME)).claimed === 1,
      10_000,
      'the cases, the void and the claim recorded',
    );
    await harness.run('case', 'lookup', [commandOption.string('player', PLAYER.name)]);

    const figures = async () => ({
      other: await record.caseTotals(guildId, OTHER.robloxId),
      moderator: await record.staffCases(guildId, created.moderator.discordId, ALL_TIME),
      claimer: await record.memberModcalls(guildId, admin, ALL_TIME),
    });
    const before = await figures();
    const tablesBefore = await everyTable(engine);
    expect(Object.values(tablesBefore).join('\n')).toContain(PLAYER.robloxId);

    const asked = await harness.run('record', 'forget', [commandOption.string('player', PLAYER.name)]);
    expect(asked.ephemeral).toBe(true);
    const confirmation = asked.outcome.reply;
    if (!confirmation) throw new Error('no confirmation');
    const counts = confirmation.embeds[0]?.description ?? '';
    expect(counts).toContain('- cases about the player: 2 (kept without them)');
    expect(counts).toContain("- the player's modcalls: 1 (kept without them)");
    // The held void, and the two cases and the modcall posted within the replay window (their bodies kept 24 h).
    expect(counts).toContain('- deliveries kept with their body: 4 (deleted)');
    expect(counts).toContain('- lookups about the player: 1 (kept without them)');
    // The feed packs cards into messages as they come: one or two messages hold the player's two cards.
    const naming = harness.discord
      .messages(harness.channel('cases'))
      .filter((message) => JSON.stringify(message.embeds).includes(PLAYER.robloxId)).length;
    expect(naming).toBeGreaterThan(0);
    expect(counts).toContain(`The bot's posted cards naming them in this server's channels: ${naming}.`);

    // A member who sees the message cannot forget: Manage Server is checked at the click.
    const refused = await clickButton(harness.discord, guildId, confirmation, 'Forget', 'member');
    expect(refused.reply?.content).toBe('You need the Manage Server permission to use this command.');
    const person = { guildId, kind: 'player' as const, id: PLAYER.robloxId, name: PLAYER.name };
    const kept = await harness.bot.store.people.keptAbout(person);
    expect(kept.length).toBeGreaterThan(0);

    // Every row naming them is still there (the heartbeat and the leases change on their own meanwhile).
    expect(await harness.bot.store.people.keptAbout(person)).toEqual(kept);
    const done = await clickButton(harness.discord, guildId, confirmation, 'Forget and redact cards');
    expect(done.reply?.content).toMatch(/^Forgot SpeedyRacer\\_09 \(Roblox id 2391045817\): \d+ rows\./);
    // Then the bot's own cards are edited, a slice at a time, the progress shown in the same reply.
    const lastAnswer = () =>
      harness.discord
        .interactionResponses(done.id)
        .filter((response) => response.kind !== 'callback')
        .at(-1)?.message?.content ?? '';
    await harness.discord.waitFor(() => lastAnswer().includes('Redacted'), 10_000, 'the cards redacted');
    expect(lastAnswer()).toMatch(new RegExp(`\\nRedacted ${naming} of ${naming} posted cards\\.$`));
    const cards = JSON.stringify(harness.discord.messages(harness.channel('cases')).map((message) => message.embeds));
    expect(cards).not.toContain(PLAYER.robloxId);
    expect(cards).not.toContain('SpeedyRacer');
    expect(cards).not.toContain('spawn killing');
    expect(cards).toContain('a former player');
    // Another player's case stays as it was, on its own message or on one of theirs.
    expect(cards).toContain('GhostRider');
    expect(cards).toContain('exploiting');

    const after = await everyTable(engine);
    for (const [table, rows] of Object.entries(after)) {
      expect(rows, table).not.toContain(PLAYER.robloxId);
      expect(rows.toLowerCase(), table).not.toContain(PLAYER.name.toLowerCase());
      expect(rows, table).not.toContain('spawn killing');
      expect(rows, table).not.toContain('ramming at spawn');
    }
    expect(await figures()).toEqual(before);
    expect(await record.findPlayer(guildId, PLAYER.name)).toBeUndefined();

    const audit = await harness.run('audit', undefined, [commandOption.string('kind', 'forget')]);
    expect(audit.outcome.reply?.embeds[0]?.description).toMatch(
      new RegExp(`<@${admin}> /record forget: a player \\(\\d+ rows of \\d+ kinds\\) → done$`),
    );
  });
});
