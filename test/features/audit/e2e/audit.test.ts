import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { buttonClick } from '../../../../fakes/discord/index.js';
import { commandOption, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';

/** /audit end to end: what admins did, recorded by the dispatcher, shown newest first; secrets never in it. */
describe('the audit log', () => {
  let h: AdminHarness;

  beforeEach(async () => {
    h = await startAdminHarness();
  });

  afterEach(async () => {
    await h.stop();
  });

  const auditText = async () => {
    const answer = await h.run('audit');
    const embed = answer.outcome.reply?.embeds[0];
    return { answer, description: embed?.description ?? answer.text };
  };

  it('shows commands, refusals and button clicks newest first, leaves reads out, and never holds a key', async () => {
    const key = h.service.issueKey();
    await h.setup(key);
    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
    await h.run('feed', 'set', [
      commandOption.string('event', 'modcall'),
      commandOption.channel('channel', h.channel('modcalls')),
    ]);
    await h.run('feed', 'show');
    await h.run('status');
    const refused = await h.run('alerts', 'off', [], 'member');
    expect(refused.text).toBe('You need the Manage Server permission to use this command.');

    // A button: Claim on a modcall card, by an admin.
    await h.service.deliver(webhookId, { event: 'modcall', data: SAMPLE_DELIVERIES.modcall.data });
    const [card] = await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
    await h.discord.waitFor(async () => (await h.bot.store.deliveries.countOpen()) === 0, 10_000, 'confirmed');
    if (!card) throw new Error('no modcall card');
    await clickButton(h.discord, h.guild.id, card, 'Claim');

    const { answer, description } = await auditText();
    expect(answer.ephemeral).toBe(true);
    const lines = description.split('\n');
    const admin = h.discord.users.admin.id;
    const member = h.discord.users.member.id;
    expect(lines[0]).toMatch(new RegExp(`<@${admin}> Claim \\(/feed button\\) → done$`));
    expect(lines[1]).toMatch(
      new RegExp(`<@${member}> /alerts off → refused: You need the Manage Server permission to use this command\\.$`),
    );
    expect(lines[2]).toMatch(
      new RegExp(`<@${admin}> /feed set event:modcall channel:<#${h.channel('modcalls')}> → done$`),
    );
    expect(lines[3]).toMatch(/\/webhook register events:all → done$/);
    expect(lines[4]).toMatch(/\/setup dialog submitted → done$/);
    expect(lines[5]).toMatch(/\/setup → done$/);
    expect(lines).toHaveLength(6);
    expect(description).not.toContain('/feed show');
    expect(description).not.toContain('/status');

    // Nothing typed into a dialog is stored: read the table itself.
    const db = new Database(h.storeFile, { readonly: true });
    const stored = JSON.stringify(db.prepare('SELECT * FROM audit').all());
    db.close();
    expect(stored).not.toContain(key);
    expect(stored).not.toContain(h.service.secretOf(webhookId));
  });

  it('a click on a button its message no longer shows is answered and recorded, and the bot goes on', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const key = h.service.issueKey();
      await h.setup(key);
      const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
      const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
      await h.run('feed', 'set', [
        commandOption.string('event', 'modcall'),
        commandOption.channel('channel', h.channel('modcalls')),
      ]);
      await h.service.deliver(webhookId, { event: 'modcall', data: SAMPLE_DELIVERIES.modcall.data });
      const [card] = await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
      await h.discord.waitFor(async () => (await h.bot.store.deliveries.countOpen()) === 0, 10_000, 'confirmed');
      if (!card) throw new Error('no modcall card');
      await clickButton(h.discord, h.guild.id, card, 'Resolve');
      const resolved = h.discord.messages(h.channel('modcalls'))[0];
      if (!resolved) throw new Error('no resolved card');
      expect(resolved.components).toEqual([]);

      // A second admin's screen still showed Claim: Discord sends the card as it is now, without the button.
      const stale = await h.discord.dispatchInteraction(
        buttonClick({ customId: 'cards:claim', message: resolved, as: 'admin', guildId: h.guild.id }),
      );
      expect(stale.reply?.content).toBe(`Already resolved by <@${h.discord.users.admin.id}>.`);

      const { description } = await auditText();
      expect(description.split('\n')[0]).toMatch(
        new RegExp(`<@${h.discord.users.admin.id}> button \\(/feed button\\) → done$`),
      );
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('answers the command even when the audit log cannot be written', async () => {
    const db = new Database(h.storeFile);
    db.exec(`CREATE TRIGGER refuse_audit BEFORE INSERT ON audit BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    db.close();
    const shown = await h.run('feed', 'default', [commandOption.channel('channel', h.channel('general'))]);
    expect(shown.text).toContain(`<#${h.channel('general')}>`);
    await h.discord.waitFor(() => h.logs.text().includes('recording an admin action failed'), 5_000, 'the log line');
    expect((await auditText()).description).toBe('No admin actions recorded yet.');
  });
});
