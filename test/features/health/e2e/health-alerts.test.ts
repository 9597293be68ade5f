import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { chatInputCommand, modalSubmit, type FakeMessage } from '../../../../fakes/discord/index.js';
import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { signDelivery } from '../../../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { commandOption, startAppHarness, type AppHarness } from '../../releases/e2e/app-harness.js';

/** /setup with a fresh server key, one webhook for every event, and #general as the default channel. */
async function setUpFeed(h: AppHarness): Promise<{ serverKey: string; webhookId: string; hookId: string }> {
  const serverKey = h.service.issueKey();
  const opened = await h.discord.dispatchInteraction(
    chatInputCommand({ name: 'setup', as: 'admin', guildId: h.guild.id }),
  );
  const customId = (opened.callback.data as { custom_id?: string } | undefined)?.custom_id ?? 'setup:server-key';
  await h.discord.dispatchInteraction(
    modalSubmit({ customId, fields: { key: serverKey }, layout: 'label', as: 'admin', guildId: h.guild.id }),
  );
  const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
  const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1] ?? '';
  expect(webhookId, registered.text).not.toBe('');
  const [hook] = await h.bot.store.hooks.listForGuild(h.guild.id);
  await h.run('feed', 'default', [commandOption.channel('channel', h.channel('general'))]);
  return { serverKey, webhookId, hookId: hook?.hookId ?? '' };
}

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
    ({ serverKey, webhookId, hookId } = await setUpFeed(h));
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

  it('re-posts a deleted alert once, even when the bot fails between the post and its record of it', async () => {
    await setAlerts();
    await sendWronglySigned(5);
    const [first] = alertsPosted();
    h.discord.deleteMessage(first?.id ?? '');
    await h.advance(60_000);
    // The store refuses to record a new message id, as a crash right after Discord's answer would leave it.
    const db = new Database(h.storeFile);
    db.exec(`CREATE TRIGGER lose_message_id BEFORE UPDATE ON record
      WHEN NEW.kind = 'incident' AND json_extract(NEW.value, '$.message.messageId') IS NOT NULL
        AND json_extract(NEW.value, '$.message.messageId') IS NOT json_extract(OLD.value, '$.message.messageId')
      BEGIN SELECT RAISE(ABORT, 'lost'); END`);
    await sendWronglySigned(1);
    expect(alertsPosted()).toHaveLength(1);

    db.exec('DROP TRIGGER lose_message_id');
    db.close();
    await h.advance(60_000);
    await sendWronglySigned(1);
    expect(alertsPosted()).toHaveLength(1);
    expect(textOf(alertsPosted()[0])).toContain('7 in a row');
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

  it('a webhook /webhook test finds switched off: an alert with Re-enable for every admin, resolved by its click', async () => {
    await setAlerts();
    h.service.disableWebhook(webhookId);
    const tested = await h.run('webhook', 'test');
    expect(tested.text).toContain(`The service says webhook \`${webhookId}\` is switched off`);
    await h.bot.health?.settled();
    expect(alertsPosted()).toHaveLength(1);
    const [alert] = alertsPosted();
    expect(textOf(alert)).toContain(`Switched off: webhook \`${webhookId}\``);
    expect(alert?.content).toBe(`<@&${h.role('Developers')}>`);
    expect(JSON.stringify(alert?.components)).toContain('"label":"Re-enable"');
    const status = await h.run('status');
    expect(status.text).toContain(`webhook \`${webhookId}\`: switched off by the service`);

    const onAlert = { outcome: undefined as never, text: '', ephemeral: false, message: alert };
    const done = await h.click(onAlert, 'Re-enable', 'admin');
    expect(done.text).toContain(`Webhook \`${webhookId}\` is switched on again.`);
    expect(h.service.isEnabled(webhookId)).toBe(true);
    await h.bot.health?.settled();
    expect(alertsPosted()).toHaveLength(1);
    expect(textOf(alertsPosted()[0])).toContain('Resolved after');
    expect(alertsPosted()[0]?.components).toEqual([]);
  });

  it('release cards standing still: one alert while polls keep failing, resolved by a good poll', async () => {
    await setAlerts();
    h.bot.health?.notePoll(h.guild.id, { failing: true, failures: 5, problem: 'could not reach the service' });
    h.bot.health?.notePoll(h.guild.id, { failing: true, failures: 6, problem: 'could not reach the service' });
    await h.bot.health?.settled();
    expect(alertsPosted()).toHaveLength(1);
    expect(textOf(alertsPosted()[0])).toContain('Release cards are not updating');
    expect(textOf(alertsPosted()[0])).toContain('6 polls in a row');
    h.bot.health?.notePoll(h.guild.id, { failing: false });
    await h.bot.health?.settled();
    expect(textOf(alertsPosted()[0])).toContain('Resolved after');
  });

  it('the bot failing to store deliveries: one alert at 5 in a row naming the error, resolved when one is stored', async () => {
    await setAlerts();
    // Another connection makes every new delivery fail to store, as a full disk would.
    const db = new Database(h.storeFile);
    db.exec(`CREATE TRIGGER refuse_deliveries BEFORE INSERT ON delivery BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    for (let i = 0; i < 5; i += 1) {
      const sent = await h.service.deliver(webhookId, { event: 'modcall', data: SAMPLE_DELIVERIES.modcall.data });
      expect(sent?.status).toBe(500);
    }
    await h.bot.health?.settled();
    expect(alertsPosted()).toHaveLength(1);
    const [alert] = alertsPosted();
    expect(textOf(alert)).toContain(`The bot failed to take deliveries: webhook \`${webhookId}\``);
    expect(textOf(alert)).toContain('5 in a row');
    expect(textOf(alert)).toContain('disk full');

    db.exec('DROP TRIGGER refuse_deliveries');
    db.close();
    await h.service.deliver(webhookId, { event: 'modcall', data: SAMPLE_DELIVERIES.modcall.data });
    await h.bot.health?.settled();
    expect(alertsPosted()).toHaveLength(1);
    expect(textOf(alertsPosted()[0])).toContain('Resolved after');
  });

  it('never puts the server key or the webhook secret in an alert, a button reply, an audit line or a log line', async () => {
    await setAlerts();
    await sendWronglySigned(16);
    const [alert] = alertsPosted();
    const onAlert = { outcome: undefined as never, text: '', ephemeral: false, message: alert };
    const replies = [
      await h.click(onAlert, 'Send test'),
      await h.click(onAlert, 'Re-enable'),
      await h.click(onAlert, 'Send test', 'member'),
    ];
    expect(replies.map((reply) => reply.text)).toEqual([
      expect.stringContaining('Ping received and verified'),
      expect.stringContaining('is switched on again'),
      'You need the Manage Server permission to use this command.',
    ]);
    const secret = h.service.secretOf(webhookId);
    const everything = [
      ...alertsPosted().map((message) => JSON.stringify(message)),
      ...replies.map((reply) => JSON.stringify(reply.outcome)),
      JSON.stringify(await h.bot.store.of(auditModule).latest(h.guild.id, 100)),
      h.logs.text(),
    ].join('\n');
    // Recorded after each answer: the last click's entry may land a moment after its reply.
    await h.discord.waitFor(
      async () => (await h.bot.store.of(auditModule).latest(h.guild.id, 1))[0]?.result === 'refused',
      5_000,
      'the refused click audited',
    );
    expect((await h.bot.store.of(auditModule).latest(h.guild.id, 3)).map((entry) => entry.result)).toEqual([
      'refused',
      'done',
      'done',
    ]);
    expect(everything).not.toContain(serverKey);
    expect(everything).not.toContain(secret);
  });
});

describe('feed health: silence, downtime and the feed channel', () => {
  let h: AppHarness;
  let webhookId: string;

  beforeEach(async () => {
    // An "hour" of /alerts set silence:<hours> lasts a minute here.
    h = await startAppHarness({ healthTimings: { hourMs: 60_000, pingTimeoutMs: 2_000 } });
    ({ webhookId } = await setUpFeed(h));
    await h.run('alerts', 'set', [
      commandOption.channel('channel', h.channel('other')),
      commandOption.integer('silence', 1),
    ]);
  });

  afterEach(async () => {
    await h.stop();
  });

  const testPings = () =>
    h.service.requests.filter((request) => request.method === 'POST' && request.path.endsWith(`${webhookId}/test`));
  const alertsPosted = () => h.messages('other');
  const textOf = (message: FakeMessage | undefined) => JSON.stringify(message?.embeds ?? []);

  it('quiet but healthy: a silent webhook gets a test ping that arrives, and no alert', async () => {
    await h.advance(90_000);
    expect(testPings().length).toBeGreaterThanOrEqual(1);
    expect(alertsPosted()).toHaveLength(0);
  });

  it('silent and unreachable: one alert with Re-enable; the click switches it on and the alert shows the new test result', async () => {
    // The service cannot reach the bot (PUBLIC_URL, certificate, network), and meanwhile switched the webhook off.
    h.setReachable(false);
    h.service.disableWebhook(webhookId);
    await h.advance(90_000);
    expect(alertsPosted()).toHaveLength(1);
    const [alert] = alertsPosted();
    expect(textOf(alert)).toContain(`No deliveries: webhook \`${webhookId}\``);
    expect(textOf(alert)).toContain('switched off');
    // A minute later it is still one alert, and no new test (tested again at most every 30 min).
    const pingsSoFar = testPings().length;
    await h.advance(60_000);
    expect(alertsPosted()).toHaveLength(1);
    expect(testPings()).toHaveLength(pingsSoFar);

    const onAlert = { outcome: undefined as never, text: '', ephemeral: false, message: alert };
    const enables = () => h.service.requests.filter((request) => request.path.endsWith(`${webhookId}/enable`)).length;
    const refused = await h.click(onAlert, 'Re-enable', 'member');
    expect(refused.text).toBe('You need the Manage Server permission to use this command.');
    expect(enables()).toBe(0);

    const done = await h.click(onAlert, 'Re-enable', 'admin');
    expect(done.text).toContain(`Webhook \`${webhookId}\` is switched on again.`);
    expect(done.text).toContain('No ping reached this bot');
    expect(enables()).toBe(1);
    expect(h.service.isEnabled(webhookId)).toBe(true);
    await h.bot.health?.settled();
    const [edited] = alertsPosted();
    expect(edited?.id).toBe(alert?.id);
    expect(textOf(edited)).toContain('re-enabled the webhook: test ping did not arrive');

    // The network is back: the next test ping arrives, and the alert is resolved in place.
    h.setReachable(true);
    const tested = await h.click(onAlert, 'Send test', 'admin');
    expect(tested.text).toContain('Ping received and verified');
    await h.bot.health?.settled();
    expect(alertsPosted()).toHaveLength(1);
    expect(textOf(alertsPosted()[0])).toContain('Resolved after');
  });

  it('after 10 min of downtime with the webhook switched off, the bot re-enables it and reports it', async () => {
    await h.stopBot();
    await h.time.advance(10 * 60_000, () => Promise.resolve());
    h.service.disableWebhook(webhookId);
    await h.restart();
    await h.bot.health?.settled();
    expect(h.service.isEnabled(webhookId)).toBe(true);
    const report = alertsPosted().find((message) => textOf(message).includes('Back after 10 min down'));
    expect(textOf(report)).toContain(
      `\`${webhookId}\`: test ping did not arrive; re-enabled, and the next test ping arrived.`,
    );
    const status = await h.run('status');
    expect(status.text).toContain('re-enabled, and the next test ping arrived');
    // Switched on again while it was proved: no alert of its own.
    expect(alertsPosted().filter((message) => textOf(message).includes('Switched off'))).toEqual([]);
  });

  it('a restart after a short stop tests nothing', async () => {
    await h.stopBot();
    await h.time.advance(60_000, () => Promise.resolve());
    const before = testPings().length;
    await h.restart();
    await h.bot.health?.settled();
    expect(testPings()).toHaveLength(before);
  });

  it('a feed channel Discord refuses: an alert naming it, with Show held listing what waits', async () => {
    h.discord.failChannel(h.channel('general'), { status: 403 });
    await h.service.deliver(webhookId, { event: 'modcall', data: SAMPLE_DELIVERIES.modcall.data });
    // The feed's lanes wait on real timers but measure their batching window on the (fake) clock: move both.
    for (let tries = 0; (await h.bot.store.deliveries.statusOf(h.guild.id)).broken.length === 0; tries += 1) {
      if (tries > 100) throw new Error('the channel was never marked broken');
      await h.advance(50);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await h.advance(30_000);
    const channelAlert = alertsPosted().find((message) => textOf(message).includes('Discord refuses the feed channel'));
    expect(textOf(channelAlert)).toContain(`<#${h.channel('general')}>`);
    const shown = await h.click(
      { outcome: undefined as never, text: '', ephemeral: false, message: channelAlert },
      'Show held',
    );
    expect(shown.ephemeral).toBe(true);
    expect(shown.text).toContain(`modcall · received`);
    expect(shown.text).toContain(`Discord refuses <#${h.channel('general')}>`);

    // Routing the events elsewhere heals it.
    await h.run('feed', 'default', [commandOption.channel('channel', h.channel('releases'))]);
    await h.advance(30_000);
    await h.bot.health?.settled();
    const healed = alertsPosted().find((message) => message.id === channelAlert?.id);
    expect(textOf(healed)).toContain('Resolved after');
  });
});
