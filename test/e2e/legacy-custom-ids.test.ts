import { afterEach, describe, expect, it } from 'vitest';

import { buttonClick, chatInputCommand, modalSubmit, type FakeMessage } from '../../fakes/discord/index.js';
import { startAppHarness, type AppHarness } from '../features/releases/e2e/app-harness.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { commandOption, startAdminHarness, type AdminHarness } from './admin-harness.js';

/**
 * The message as the version before issue 43 posted it: the same message, its buttons carrying that version's
 * custom ids (by label). Discord sends the message along with a click, as it keeps it.
 */
function asPostedBefore(message: FakeMessage, ids: Record<string, string>): unknown {
  const rows = message.components as Array<{ components?: Array<Record<string, unknown>> }>;
  const components = rows.map((row) => ({
    ...row,
    components: (row.components ?? []).map((component) => {
      const id = ids[String(component['label'])];
      return id === undefined ? component : { ...component, custom_id: id };
    }),
  }));
  return { ...message.api, components };
}

/** A click on a message as the version before issue 43 posted it. */
function clickPostedBefore(message: FakeMessage, ids: Record<string, string>, label: string, guildId: string) {
  const customId = ids[label] ?? '';
  return buttonClick({ customId, message, as: 'admin', guildId, overrides: { message: asPostedBefore(message, ids) } });
}

/**
 * Buttons and dialogs already out there when the features came to own their custom ids (issue 43): the real bot,
 * clicked with the ids exactly as the version before put them on its messages.
 */
describe('custom ids of the version before, on messages Discord keeps', () => {
  let admin: AdminHarness | undefined;
  let app: AppHarness | undefined;

  afterEach(async () => {
    await admin?.stop();
    await app?.stop();
    admin = undefined;
    app = undefined;
  });

  it("a modcall card's Claim and Resolve (feed:modcall:…) claim and resolve it; the audit log names /feed", async () => {
    const h = (admin = await startAdminHarness());
    await h.setup(h.service.issueKey());
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
    const before = { Claim: 'feed:modcall:claim', Resolve: 'feed:modcall:resolve' };
    const userId = h.discord.users.admin.id;
    const shown = () => JSON.stringify(h.discord.messages(h.channel('modcalls'))[0]?.embeds ?? []);

    await h.discord.dispatchInteraction(clickPostedBefore(card, before, 'Claim', h.guild.id));
    expect(shown()).toContain(`Claimed by <@${userId}>`);
    await h.discord.dispatchInteraction(clickPostedBefore(card, before, 'Resolve', h.guild.id));
    expect(shown()).toContain(`Resolved by <@${userId}>`);
    expect(h.discord.messages(h.channel('modcalls'))[0]?.components).toEqual([]);

    const lines = (await h.run('audit')).outcome.reply?.embeds[0]?.description?.split('\n') ?? [];
    expect(lines[0]).toMatch(new RegExp(`<@${userId}> Resolve \\(/feed button\\) → done$`));
    expect(lines[1]).toMatch(new RegExp(`<@${userId}> Claim \\(/feed button\\) → done$`));
  });

  it('the server key dialog opened before (setup:server-key) is saved when submitted after', async () => {
    const h = (admin = await startAdminHarness());
    await h.discord.dispatchInteraction(chatInputCommand({ name: 'setup', as: 'admin', guildId: h.guild.id }));
    const key = h.service.issueKey();
    h.typedKeys.push(key);
    const saved = await h.discord.dispatchInteraction(
      modalSubmit({ customId: 'setup:server-key', fields: { key }, layout: 'label', as: 'admin', guildId: h.guild.id }),
    );
    expect(saved.reply?.content).toMatch(/^Server key saved\./);
    expect((await h.run('webhook', 'register', [commandOption.string('events', 'all')])).text).toMatch(
      /^Webhook `wh_[0-9a-f]+` registered/,
    );
    const lines = (await h.run('audit')).outcome.reply?.embeds[0]?.description?.split('\n') ?? [];
    expect(lines[1]).toMatch(/\/setup dialog submitted → done$/);
  });

  it("an alert's Re-enable (alerts:reenable:<hook>) switches its webhook on and tests it", async () => {
    const h = (app = await startAppHarness());
    const opened = await h.discord.dispatchInteraction(
      chatInputCommand({ name: 'setup', as: 'admin', guildId: h.guild.id }),
    );
    const dialogId = (opened.callback.data as { custom_id?: string } | undefined)?.custom_id ?? '';
    await h.discord.dispatchInteraction(
      modalSubmit({
        customId: dialogId,
        fields: { key: h.service.issueKey() },
        layout: 'label',
        as: 'admin',
        guildId: h.guild.id,
      }),
    );
    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
    const [hook] = await h.bot.store.hooks.listForGuild(h.guild.id);
    await h.run('alerts', 'set', [commandOption.channel('channel', h.channel('other'))]);
    h.service.disableWebhook(webhookId);
    await h.run('webhook', 'test');
    await h.bot.health?.settled();
    const [alert] = h.messages('other');
    if (!alert) throw new Error('no alert');
    const before = { 'Re-enable': `alerts:reenable:${hook?.hookId ?? ''}` };

    const done = await h.discord.dispatchInteraction(clickPostedBefore(alert, before, 'Re-enable', h.guild.id));
    expect(done.reply?.content).toContain(`Webhook \`${webhookId}\` is switched on again.`);
    expect(done.reply?.content).toContain('Ping received and verified');
    expect(h.service.isEnabled(webhookId)).toBe(true);
  });
});
