import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { chatInputCommand, modalSubmit, type FakeMessage } from '../../fakes/discord/index.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { commandOption, startAppHarness, type AppHarness } from './app-harness.js';

/**
 * Feed-health alerts end to end: the real bot on a fake clock, the fake service and the fake Discord. An alert
 * is one message in the alert channel, edited as its incident evolves.
 */
describe('feed health alerts', () => {
  let h: AppHarness;
  let webhookId: string;
  let hookId: string;
  let serverKey: string;

  beforeEach(async () => {
    h = await startAppHarness();
    serverKey = h.service.issueKey();
    const opened = await h.discord.dispatchInteraction(
      chatInputCommand({ name: 'setup', as: 'admin', guildId: h.guild.id }),
    );
    const customId = (opened.callback.data as { custom_id?: string } | undefined)?.custom_id ?? 'setup:server-key';
    await h.discord.dispatchInteraction(
      modalSubmit({ customId, fields: { key: serverKey }, layout: 'label', as: 'admin', guildId: h.guild.id }),
    );
    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
    expect(webhookId, registered.text).not.toBe('');
    const [hook] = await h.bot.store.hooks.listForGuild(h.guild.id);
    hookId = hook?.hookId ?? '';
    await h.run('feed', 'default', [commandOption.channel('channel', h.channel('general'))]);
  });

  afterEach(async () => {
    await h.stop();
  });

  /** Posts a modcall signed with a secret the bot does not have (as after a secret rotated elsewhere). */
  const sendWronglySigned = async (count: number) => {
    for (let i = 0; i < count; i += 1) {
      const body = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: `bad-${i}-${Math.random()}` });
      const timestamp = String(Math.floor(h.time.now() / 1000));
      const response = await fetch(`${h.bot.http.url}/webhooks/${hookId}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-service-timestamp': timestamp,
          'x-service-signature': signDelivery('not-the-secret', timestamp, body),
        },
        body,
      });
      expect(response.status).toBe(401);
    }
    await h.bot.health?.settled();
  };

  const setAlerts = () =>
    h.run('alerts', 'set', [
      commandOption.channel('channel', h.channel('other')),
      commandOption.role('role', h.role('Developers')),
    ]);

  const alertsPosted = (): FakeMessage[] => h.messages('other');
  const textOf = (message: FakeMessage | undefined) => JSON.stringify(message?.embeds ?? []);

  it('raises one alert at 5 refusals in a row, edits it to 15, and edits it to resolved at the next good delivery', async () => {
    const set = await setAlerts();
    expect(set.text).toContain(`Health alerts go to <#${h.channel('other')}>`);

    await sendWronglySigned(4);
    expect(alertsPosted()).toHaveLength(0);

    await sendWronglySigned(1);
    expect(alertsPosted()).toHaveLength(1);
    const [alert] = alertsPosted();
    expect(textOf(alert)).toContain(webhookId);
    expect(textOf(alert)).toContain('5 in a row');
    expect(textOf(alert)).toContain('20 failed deliveries in a row');
    expect(alert?.content).toBe(`<@&${h.role('Developers')}>`);

    await sendWronglySigned(10);
    expect(alertsPosted()).toHaveLength(1);
    const [escalated] = alertsPosted();
    expect(escalated?.id).toBe(alert?.id);
    expect(textOf(escalated)).toContain('15 in a row');
    expect(textOf(escalated)).toContain('5 more and it is off');

    await h.service.deliver(webhookId, { event: 'modcall', data: SAMPLE_DELIVERIES.modcall.data });
    await h.bot.health?.settled();
    const [resolved] = alertsPosted();
    expect(alertsPosted()).toHaveLength(1);
    expect(resolved?.id).toBe(alert?.id);
    expect(textOf(resolved)).toContain('Resolved after');
    expect(resolved?.components).toEqual([]);
  });

  it('posts no second alert after a restart mid-incident', async () => {
    await setAlerts();
    await sendWronglySigned(6);
    expect(alertsPosted()).toHaveLength(1);

    await h.restart();
    await h.bot.health?.settled();
    await sendWronglySigned(2);
    expect(alertsPosted()).toHaveLength(1);
    expect(textOf(alertsPosted()[0])).toContain('8 in a row');
  });

  it('keeps an incident without an alert channel, and posts it when one is set', async () => {
    await sendWronglySigned(5);
    expect(alertsPosted()).toHaveLength(0);
    const shown = await h.run('alerts', 'show');
    expect(shown.text).toContain('Health alerts are off');
    expect(shown.text).toContain(`\`${webhookId}\`: 5 deliveries refused in a row`);

    await setAlerts();
    expect(alertsPosted()).toHaveLength(1);
  });

  it('Re-enable on an alert: refused without Manage Server, then switches the webhook on and tests it', async () => {
    await setAlerts();
    await sendWronglySigned(5);
    h.service.disableWebhook(webhookId);
    const [alert] = alertsPosted();
    const onAlert = { outcome: undefined as never, text: '', ephemeral: false, message: alert };
    const calls = () => h.service.requests.filter((request) => request.path.includes(webhookId)).length;
    const before = calls();

    const refused = await h.click(onAlert, 'Re-enable', 'member');
    expect(refused.text).toBe('You need the Manage Server permission to use this command.');
    expect(calls()).toBe(before);
    expect(h.service.isEnabled(webhookId)).toBe(false);

    const done = await h.click(onAlert, 'Re-enable', 'admin');
    expect(done.ephemeral).toBe(true);
    expect(done.text).toContain(`Webhook \`${webhookId}\` is switched on again.`);
    expect(done.text).toContain('Ping received and verified');
    expect(h.service.isEnabled(webhookId)).toBe(true);
    // The ping verified: the streak is over and the alert says what was done.
    await h.bot.health?.settled();
    const [edited] = alertsPosted();
    expect(textOf(edited)).toContain('Resolved after');
  });

  it('never puts the server key or the webhook secret in an alert, a reply or a log line', async () => {
    await setAlerts();
    await sendWronglySigned(16);
    const secret = h.service.secretOf(webhookId);
    const everything = [...alertsPosted().map((message) => JSON.stringify(message)), h.logs.text()].join('\n');
    expect(everything).not.toContain(serverKey);
    expect(everything).not.toContain(secret);
  });
});
