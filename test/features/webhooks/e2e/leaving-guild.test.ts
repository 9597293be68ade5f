import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { commandOption, startAdminHarness, type AdminHarness } from '../../../e2e/admin-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { startAppHarness, type AppHarness } from '../../releases/e2e/app-harness.js';

const MINUTE = 60_000;
const modcall = { event: 'modcall', data: SAMPLE_DELIVERIES.modcall.data };

/** The removal's audit line is written after the store forgot the server, in a write of its own: wait for it. */
async function untilRemovalAudited(h: AdminHarness, guildId: string, timeoutMs: number): Promise<void> {
  const audited = async () => (await h.bot.store.of(auditModule).latest(guildId, 1)).length > 0;
  await h.discord.waitFor(audited, timeoutMs, 'the removal in the audit log');
}

/** Leaving a server, end to end: GUILD_DELETE sent over the fake Discord's gateway, as Discord does. */
describe('when the bot is removed from a server', () => {
  let stop: (() => Promise<void>) | undefined;

  afterEach(async () => {
    await stop?.();
    stop = undefined;
  });

  it("forgets it: the service's next delivery is refused with 404, keys and held deliveries are gone; an outage changes nothing", async () => {
    const h: AdminHarness = await startAdminHarness();
    stop = () => h.stop();
    const key = h.service.issueKey();
    await h.setup(key);
    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
    // No route yet: the delivery is held (held, unrouted), its body kept.
    expect(await h.service.deliver(webhookId, modcall)).toMatchObject({ status: 204 });
    const client = h.bot.discord;
    if (!client) throw new Error('the bot runs without Discord');

    // An outage (GUILD_DELETE with unavailable: true) is not a removal.
    h.discord.makeGuildUnavailable(h.guild.id);
    await h.discord.waitFor(() => client.guilds.cache.get(h.guild.id)?.available === false, 5_000, 'the outage');
    expect(await h.service.deliver(webhookId, modcall)).toMatchObject({ status: 204 });
    expect(await h.bot.store.hooks.listForGuild(h.guild.id)).toHaveLength(1);
    expect((await h.bot.store.guilds.get(h.guild.id)).serverKey).not.toBeNull();
    expect(await h.bot.store.deliveries.countOpen()).toBe(2);

    h.discord.removeBotFromGuild(h.guild.id);
    await h.discord.waitFor(
      async () => (await h.bot.store.hooks.listForGuild(h.guild.id)).length === 0,
      5_000,
      'the hooks forgotten',
    );
    const refused = await h.service.deliver(webhookId, modcall);
    expect(refused).toMatchObject({ status: 404, ok: false });
    expect((await h.bot.store.guilds.get(h.guild.id)).serverKey).toBeNull();
    expect(await h.bot.store.deliveries.countOpen()).toBe(0);
    // One line in the log and in the audit log, counted, without a key or a secret.
    await untilRemovalAudited(h, h.guild.id, 5_000);
    const line = h.logs.lines
      .map((text) => JSON.parse(text) as { msg?: string })
      .find((entry) => entry.msg?.startsWith('removed from a server'));
    expect(line).toMatchObject({ guildId: h.guild.id, hooks: 1, serverKeys: 1, openDeliveries: 2 });
    const [audit] = await h.bot.store.of(auditModule).latest(h.guild.id, 1);
    expect(audit).toMatchObject({
      userId: h.discord.bot.id,
      action: 'Removed from the server: forgot 1 webhook, the server key, 2 waiting or held deliveries',
      result: 'done',
    });
    const secrets = [key, h.service.secretOf(webhookId)];
    for (const text of [h.logs.text(), JSON.stringify(audit)]) {
      expect(secrets.filter((secret) => text.includes(secret))).toEqual([]);
    }
  });

  it('forgets a server it was removed from while it was down, at its next start, but only as the bot the store belongs to', async () => {
    const h: AdminHarness = await startAdminHarness();
    stop = () => h.stop();
    await h.setup(h.service.issueKey());
    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
    // A second server with a webhook and a server key of its own.
    const other = h.discord.addGuild().id;
    await h.bot.store.hooks.save({
      hookId: 'hook-of-the-other',
      guildId: other,
      webhookId: 'wh_other',
      secret: 'sealed-secret-of-the-other',
      events: ['all'],
      createdAt: Date.now(),
    });
    await h.bot.store.guilds.update(other, (settings) => ({ ...settings, serverKey: 'sealed-key-of-the-other' }));
    const otherForgotten = async () => (await h.bot.store.hooks.listForGuild(other)).length === 0;
    const ready = (count: number) =>
      h.discord.waitFor(
        () => h.logs.text().split('Discord gateway ready').length - 1 >= count,
        10_000,
        `gateway ready ${count} times`,
      );
    const storeBelongsTo = (userId: string) => {
      const db = new Database(h.storeFile);
      db.prepare(`UPDATE record SET value = ? WHERE kind = 'bot' AND key = 'identity'`).run(JSON.stringify({ userId }));
      db.close();
    };

    // A restart with nothing changed forgets nothing.
    await h.restart();
    await ready(2);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await otherForgotten()).toBe(false);

    // Removed from the other server while down; the store says it belongs to another bot user (the token of
    // another application): the removal is not acted on.
    await h.restart(() => {
      h.discord.removeBotFromGuild(other);
      storeBelongsTo('100000000000000001');
      return Promise.resolve();
    });
    await h.discord.waitFor(
      () => h.logs.text().includes('this store belongs to another bot user'),
      10_000,
      'the refusal to forget',
    );
    expect(await otherForgotten()).toBe(false);

    // As its own bot, the next start forgets that server as a removal does, and only that one.
    await h.restart(() => {
      storeBelongsTo(h.discord.bot.id);
      return Promise.resolve();
    });
    await h.discord.waitFor(otherForgotten, 10_000, 'the other server forgotten');
    expect((await h.bot.store.guilds.get(other)).serverKey).toBeNull();
    await untilRemovalAudited(h, other, 10_000);
    const [audit] = await h.bot.store.of(auditModule).latest(other, 1);
    expect(audit).toMatchObject({
      userId: h.discord.bot.id,
      action: 'Removed from the server: forgot 1 webhook, the server key',
    });
    expect(h.logs.text()).toContain('removed from a server while the bot was down');
    expect(await h.bot.store.hooks.listForGuild(h.guild.id)).toHaveLength(1);
    expect(await h.service.deliver(webhookId, modcall)).toMatchObject({ status: 204 });
    expect(h.logs.text()).not.toContain('sealed-key-of-the-other');
  });

  it("stops polling its watched apps: the service hears no more of that server's developer key", async () => {
    const h: AppHarness = await startAppHarness();
    stop = () => h.stop();
    const { appId } = await h.seedApp('Pricewise', [{ version: '1.0', status: 'in_review' }]);
    await h.run('app', 'watch', [
      commandOption.string('app', String(appId)),
      commandOption.channel('channel', h.channel('releases')),
    ]);
    await h.settle();
    const polls = () => h.service.requests.filter((request) => request.path.startsWith('/api/v1/apps')).length;
    await h.advance(2 * MINUTE);
    const whilePresent = polls();
    expect(whilePresent).toBeGreaterThan(0);

    h.discord.removeBotFromGuild(h.guild.id);
    await h.discord.waitFor(
      async () => (await h.bot.apps.documents.listGuilds()).length === 0,
      5_000,
      'the watches forgotten',
    );
    const removedAt = polls();
    await h.advance(10 * MINUTE);
    expect(polls()).toBe(removedAt);
    expect((await h.bot.apps.documents.readGuild(h.guild.id)).developerKey).toBeNull();
  });
});
