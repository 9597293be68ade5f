import { InteractionResponseType } from 'discord.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { autocomplete } from '../../fakes/discord/index.js';
import { generateEventStream, type DeliveryEnvelope } from '../../fakes/service/index.js';
import { UNKNOWN_COMMAND } from '../../src/discord/interaction-dispatch.js';
import { GENERIC_FAILURE } from '../../src/discord/interaction-failures.js';
import { REPEAT_CALL_WINDOW_MS } from '../../src/features/cards/feed-cards.js';
import { subjectOf } from '../../src/features/cards/subjects.js';
import { classifyDelivery } from '../../src/upstream/schemas.js';
import { TEST_ROUTES } from '../fixtures/routes.js';
import { PACKAGE_VERSION } from '../helpers/package-version.js';
import { commandOption, startAdminHarness, type AdminHarness, type ChannelName } from './admin-harness.js';

const NOT_ADMIN = 'You need the Manage Server permission to use this command.';

const ROUTES = TEST_ROUTES;

let h: AdminHarness;

beforeEach(async () => {
  h = await startAdminHarness();
});

afterEach(async () => {
  try {
    // Every body the bot sent Discord passed Discord's schema, and it used no route the fake does not know.
    expect(h.discord.violations).toEqual([]);
    expect(h.discord.unhandledRequests).toEqual([]);
    expectNoLeaks();
  } finally {
    await h.stop();
  }
});

/** No key typed into /setup and no webhook secret appears in a log line or in anything sent to Discord. */
function expectNoLeaks(): void {
  const secrets = [...h.typedKeys, ...h.service.webhooks().map((webhook) => h.service.secretOf(webhook.id))];
  const seen = {
    logs: h.logs.text(),
    requests: JSON.stringify(h.discord.requests.map((request) => request.body)),
    messages: JSON.stringify(h.discord.allMessages().map((message) => message.body)),
  };
  for (const [where, text] of Object.entries(seen)) {
    // The message names where, never the secret itself.
    expect(secrets.filter((secret) => text.includes(secret)).length, `a key or secret in ${where}`).toBe(0);
  }
}

/** An admin sets a fresh key and registers a webhook for every event; returns the key and the webhook id. */
async function setUpFeed(): Promise<{ key: string; webhookId: string }> {
  const key = h.service.issueKey();
  expect((await h.setup(key)).submit.text).toMatch(/^Server key saved\./);
  const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
  const webhookId = /`(wh_[0-9a-f]+)`/.exec(registered.text)?.[1];
  if (!webhookId) throw new Error(`no webhook id in: ${registered.text}`);
  return { key, webhookId };
}

async function routeEverything(): Promise<void> {
  for (const [event, channel] of Object.entries(ROUTES)) {
    const answer = await h.run('feed', 'set', [
      commandOption.string('event', event),
      commandOption.channel('channel', h.channel(channel)),
    ]);
    expect(answer.text).toBe(`${event} now goes to <#${h.channel(channel)}>.`);
  }
}

/**
 * The deliveries of a stream that leave an embed of their own: all but those that change a card already posted
 * (a case's void, a session's or shift's end, whose first event's card shows them) and a caller's repeat
 * modcalls within 10 minutes of their last call (counted on the first call's card).
 */
function countCards(stream: readonly DeliveryEnvelope[]): Set<string> {
  const own = new Set<string>();
  const origins = new Set<string>();
  const lastCall = new Map<string, number>();
  for (const delivery of stream) {
    const classified = classifyDelivery(delivery);
    const subject = subjectOf(classified);
    if (subject?.role === 'origin') origins.add(subject.key);
    if (subject?.role === 'final' && origins.has(subject.key)) continue;
    if (classified.kind === 'event' && classified.event.event === 'modcall') {
      const caller = `${classified.event.server}:${classified.event.data.caller.robloxId}`;
      const previous = lastCall.get(caller);
      lastCall.set(caller, classified.event.data.at);
      if (previous !== undefined && classified.event.data.at - previous <= REPEAT_CALL_WINDOW_MS) continue;
    }
    own.add(delivery.id);
  }
  return own;
}

/** Every embed posted in a channel, across the feed's batched messages. */
function embedsIn(channel: ChannelName) {
  return h.discord.messages(h.channel(channel)).flatMap((message) => message.embeds);
}

async function waitForEmbeds(channel: ChannelName, count: number): Promise<void> {
  await h.discord.waitFor(() => embedsIn(channel).length >= count, 15_000, `${count} embeds in #${channel}`);
}

/** The feed lets an entry go only after Discord confirmed its message, a moment after the message exists. */
async function waitForEmptyOutbox(): Promise<void> {
  await h.discord.waitFor(async () => (await h.bot.store.deliveries.countOpen()) === 0, 5_000, 'an empty outbox');
}

describe('admin slash commands, end to end', () => {
  it('take an admin from "bot invited" to "feed flowing and proven"', async () => {
    const key = h.service.issueKey();
    const { modal, submit } = await h.setup(key);
    expect(modal.outcome.callback.type).toBe(InteractionResponseType.Modal);
    expect(submit.ephemeral).toBe(true);
    expect(submit.text).toBe('Server key saved. It is stored encrypted. Next: /webhook register, then /webhook test.');
    expect((await h.bot.store.guilds.get(h.guild.id)).serverKey).toMatch(/^sealed:v1:/);

    const registered = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    // Deferred first (the service is called), then filled in.
    expect(registered.outcome.callback.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(registered.ephemeral).toBe(true);
    const [webhook] = h.service.webhooks();
    expect(registered.text).toBe(
      `Webhook \`${webhook?.id}\` registered for all events. Next: /webhook test to prove deliveries arrive, and /feed default or /feed set to choose channels.`,
    );

    await routeEverything();
    const role = h.guild.roles['Moderators'] ?? '';
    expect(
      (await h.run('feed', 'mention', [commandOption.string('event', 'modcall'), commandOption.role('role', role)]))
        .text,
    ).toBe(`modcall now pings <@&${role}>.`);

    const tested = await h.run('webhook', 'test');
    expect(tested.text).toMatch(
      new RegExp(`^Ping received and verified in \\d+ ms: webhook \`${webhook?.id}\` reaches this bot`),
    );

    const stream = generateEventStream({ serverId: h.service.serverIdOf(key) });
    for (const event of stream) expect(await h.service.emit(event)).toMatchObject([{ ok: true }]);
    const cards = countCards(stream);
    for (const channel of new Set(Object.values(ROUTES))) {
      const expected = stream.filter((event) => ROUTES[event.event] === channel && cards.has(event.id)).length;
      await waitForEmbeds(channel, expected);
      expect(embedsIn(channel)).toHaveLength(expected);
    }
    const modcallMessage = h.discord.messages(h.channel('modcalls'))[0];
    expect(modcallMessage?.content).toContain(`<@&${role}>`);
    expect(modcallMessage?.allowed_mentions).toMatchObject({ roles: [role] });
    expect(h.discord.messages(h.channel('general'))).toEqual([]);

    const shown = await h.run('feed', 'show');
    expect(shown.text).toContain(`• modcall → <#${h.channel('modcalls')}> · pings <@&${role}>`);
    await waitForEmptyOutbox();
    const status = await h.run('status');
    expect(status.text).toContain('Server key: set, stored encrypted.');
    expect(status.text).toContain(
      'Stored secrets: webhook secrets: 1 sealed, 0 plain; server key: sealed; developer key: not set.',
    );
    expect(status.text).toContain('Events waiting to be posted: 0');
    expect(status.text).toContain('Broken channels: none.');
    expect(status.text).toContain(`Bot version: ${PACKAGE_VERSION}.`);
    const listed = await h.run('webhook', 'list');
    expect(listed.text).toMatch(
      new RegExp(
        `\`${webhook?.id}\` · all events · on \\(as of <t:\\d+:R>\\) · last delivery <t:\\d+:R> \\(session.ended\\) · no refused deliveries`,
      ),
    );
  });

  it('recover a webhook the service switched off after 20 failed deliveries', async () => {
    const { key, webhookId } = await setUpFeed();
    await h.run('feed', 'default', [commandOption.channel('channel', h.channel('general'))]);
    const modcalls = generateEventStream({ serverId: h.service.serverIdOf(key) }).filter(
      (event) => event.event === 'modcall',
    );
    const [modcall] = modcalls;
    if (!modcall) throw new Error('the stream has no modcall');

    h.setReachable(false);
    for (let i = 0; i < 20; i += 1) {
      expect(await h.service.deliver(webhookId, { event: 'modcall', data: modcall.data })).toMatchObject({
        ok: false,
        failure: 'network',
      });
    }
    expect(h.service.isEnabled(webhookId)).toBe(false);
    expect(await h.service.deliver(webhookId, { event: 'modcall', data: modcall.data })).toBeUndefined();

    // The service sends nothing to a switched-off webhook, its test ping included, and says so.
    const switchedOff = await h.run('webhook', 'test');
    expect(switchedOff.text).toBe(
      `The service says webhook \`${webhookId}\` is switched off: run /webhook enable, then test again.`,
    );

    h.setReachable(true);
    const enabled = await h.run('webhook', 'enable');
    expect(enabled.text).toBe(
      `Webhook \`${webhookId}\` is switched on again. Run /webhook test to check that deliveries arrive.`,
    );
    expect(h.service.isEnabled(webhookId)).toBe(true);

    // The service re-sends what failed while the bot was unreachable, and new events flow again.
    const resent = await h.service.retryFailed();
    expect(resent).toHaveLength(20);
    expect(resent.every((record) => record.ok)).toBe(true);
    expect(await h.service.deliver(webhookId, { event: 'modcall', data: modcall.data })).toMatchObject({ ok: true });
    // One caller's 21 calls within minutes are one card, each call counted once.
    await waitForEmbeds('general', 1);
    await waitForEmptyOutbox();
    expect(embedsIn('general')).toHaveLength(1);
    expect(JSON.stringify(embedsIn('general'))).toContain('Called 21 times');
    expect((await h.run('status')).text).toContain('Events waiting to be posted: 0');
  });

  it('refuse members without Manage Server, whatever the command', async () => {
    const attempts = [
      await h.run('status', undefined, [], 'member'),
      await h.run('webhook', 'list', [], 'member'),
      await h.run('webhook', 'register', [commandOption.string('events', 'all')], 'member'),
      await h.run('feed', 'default', [commandOption.channel('channel', h.channel('general'))], 'member'),
    ];
    // /setup shows no modal to a member, and a submit of its modal by a member is refused as well.
    const { modal, submit } = await h.setup(h.service.issueKey(), 'member');
    for (const attempt of [...attempts, modal, submit]) {
      expect(attempt.text).toBe(NOT_ADMIN);
      expect(attempt.ephemeral).toBe(true);
    }
    expect(h.service.requests).toEqual([]);
    expect(await h.bot.store.guilds.get(h.guild.id)).toMatchObject({ serverKey: null, defaultChannelId: null });
  });

  it('explain what is wrong with a pasted key that is not a server key', async () => {
    const developerKey = 'upk_0123456789abcdef0123456789abcdef';
    const developer = (await h.setup(developerKey)).submit;
    expect(developer.text).toMatch(
      /^That is a developer key \(upk_…\): it manages apps .* server key of the server API v2, which starts with usk_/,
    );
    expect(developer.text).not.toContain(developerKey);
    expect((await h.setup('hello there')).submit.text).toMatch(/^That is not a server key/);
    expect((await h.bot.store.guilds.get(h.guild.id)).serverKey).toBeNull();
    expect((await h.run('webhook', 'register', [commandOption.string('events', 'all')])).text).toBe(
      'No server key yet: run /setup first.',
    );
  });

  it('give clear messages for replaced, revoked and rate-limited keys', async () => {
    const { key } = await setUpFeed();

    h.service.rateLimitNext(key, 30);
    expect((await h.run('webhook', 'test')).text).toBe(
      'Could not ask the service for a test ping: the service is rate-limiting us: try again in 30 s.',
    );

    const replacement = h.service.replaceKey(key);
    expect((await h.run('webhook', 'enable')).text).toBe(
      'Could not switch the webhook on: the server key was replaced or revoked: run /setup with the new key.',
    );
    expect((await h.setup(replacement)).submit.text).toBe(
      'Server key saved. It is stored encrypted. It replaces the previous key; the service checks it at the next /webhook command.',
    );
    expect((await h.run('webhook', 'test')).text).toMatch(/^Ping received and verified/);

    h.service.revokeAccess(replacement);
    expect((await h.run('webhook', 'register', [commandOption.string('events', 'modcall')])).text).toBe(
      'Could not register the webhook: developer access was revoked: the service refuses this server key until it is restored.',
    );
  });

  it('refuse a fourth webhook before asking the service, and say what to do', async () => {
    await setUpFeed();
    await h.run('webhook', 'register', [commandOption.string('events', 'modcall')]);
    await h.run('webhook', 'register', [commandOption.string('events', 'case.created')]);
    const calls = h.service.requests.length;
    const fourth = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    expect(fourth.text).toMatch(
      /^This server already has 3 webhooks, the most one server key may have\. Reuse one .* \/webhook remove\. The service documents no delete/,
    );
    expect(h.service.requests).toHaveLength(calls);

    const suggestions = await h.discord.dispatchInteraction(
      autocomplete({
        name: 'webhook',
        subcommand: 'remove',
        focused: 'webhook',
        typed: 'modcall',
        guildId: h.guild.id,
      }),
      { settle: 'callback' },
    );
    const hooks = await h.bot.store.hooks.listForGuild(h.guild.id);
    const modcallHook = hooks.find((hook) => hook.events.length === 1 && hook.events[0] === 'modcall');
    expect(suggestions.callback.data).toEqual({
      choices: [{ name: `${modcallHook?.webhookId} · modcall`, value: modcallHook?.hookId }],
    });

    const removed = await h.run('webhook', 'remove', [commandOption.string('webhook', modcallHook?.hookId ?? '')]);
    expect(removed.text).toContain(
      `Webhook \`${modcallHook?.webhookId}\` is forgotten here. The service documents no delete`,
    );
    // The service still holds three, so it refuses, and the admin is told why.
    const again = await h.run('webhook', 'register', [commandOption.string('events', 'all')]);
    expect(again.text).toMatch(/^The service refused: this server key already has the most webhooks it allows there/);
  });

  it('refuse a feed channel where the bot cannot read the history its replies to cards need', async () => {
    await setUpFeed();
    const refusal = `I cannot reply to my cards in <#${h.channel('no-history')}>: I am missing Read Message History there. Grant them (or choose another channel) and run the command again; nothing was saved.`;
    const set = await h.run('feed', 'set', [
      commandOption.string('event', 'case.voided'),
      commandOption.channel('channel', h.channel('no-history')),
    ]);
    expect(set.text).toBe(refusal);
    const byDefault = await h.run('feed', 'default', [commandOption.channel('channel', h.channel('no-history'))]);
    expect(byDefault.text).toBe(refusal);
    const settings = await h.bot.store.guilds.get(h.guild.id);
    expect(settings.routes).toEqual({});
    expect(settings.defaultChannelId).not.toBe(h.channel('no-history'));
  });

  it('refuse a channel the bot cannot post embeds in, and show broken channels in /status', async () => {
    await setUpFeed();
    const locked = await h.run('feed', 'set', [
      commandOption.string('event', 'modcall'),
      commandOption.channel('channel', h.channel('locked')),
    ]);
    expect(locked.text).toBe(
      `I cannot post embeds in <#${h.channel('locked')}>: I am missing Embed Links there. Grant them (or choose another channel) and run the command again; nothing was saved.`,
    );
    expect((await h.bot.store.guilds.get(h.guild.id)).routes).toEqual({});
    expect((await h.run('feed', 'default', [commandOption.channel('channel', h.channel('news'))])).text).toBe(
      `Events without a channel of their own now go to <#${h.channel('news')}>.`,
    );

    h.discord.failChannel(h.channel('news'));
    const [modcall] = h.service.webhooks();
    await h.service.deliver(modcall?.id ?? '', {
      event: 'modcall',
      data: { caller: { robloxId: '1', name: 'Player' }, at: Date.now() },
    });
    await h.discord.waitFor(
      async () => (await h.bot.store.deliveries.statusOf(h.guild.id)).broken.length === 1,
      10_000,
      'a broken channel',
    );
    const shown = await h.run('status');
    expect(shown.text).toMatch(
      new RegExp(`Broken channels .*\\n• <#${h.channel('news')}>: Discord 403: Missing Access`),
    );
    expect(shown.text).toContain('Events kept for a broken channel: 1');
    expect(shown.text).toMatch(
      /Kept aside, oldest first:\n• modcall `[^`]+` · its channel is broken: Discord 403: Missing Access/,
    );

    h.discord.clearFaults();
    await h.run('feed', 'set', [
      commandOption.string('event', 'modcall'),
      commandOption.channel('channel', h.channel('modcalls')),
    ]);
    await waitForEmbeds('modcalls', 1);
  });

  it('set and clear a role mention, warning when the role cannot be pinged', async () => {
    const quiet = h.guild.roles['Quiet'] ?? '';
    const set = await h.run('feed', 'mention', [
      commandOption.string('event', 'case.created'),
      commandOption.role('role', quiet),
    ]);
    expect(set.text).toMatch(
      new RegExp(`^case.created now pings <@&${quiet}>\\. Note: that role is not mentionable and I lack`),
    );
    expect((await h.bot.store.guilds.get(h.guild.id)).mentions).toEqual({ 'case.created': quiet });
    expect((await h.run('feed', 'mention', [commandOption.string('event', 'case.created')])).text).toBe(
      'case.created no longer pings anyone.',
    );
    expect((await h.bot.store.guilds.get(h.guild.id)).mentions).toEqual({});
    const everyone = await h.run('feed', 'mention', [
      commandOption.string('event', 'modcall'),
      commandOption.role('role', h.guild.everyoneRoleId),
    ]);
    expect(everyone.text).toBe('Choose a role other than @everyone.');
  });

  it('answer an unknown command and an unexpected failure without details', async () => {
    const unknown = await h.run('nosuchcommand');
    expect(unknown.text).toBe(UNKNOWN_COMMAND);
    expect(unknown.ephemeral).toBe(true);

    await setUpFeed();
    // A store that fails under the command: an error that is not the admin's to fix.
    const hooks = h.bot.store.hooks;
    const original = hooks.listForGuild.bind(hooks);
    hooks.listForGuild = () => Promise.reject(new Error('disk I/O error'));
    try {
      const failed = await h.run('webhook', 'list');
      expect(failed.text).toBe(GENERIC_FAILURE);
    } finally {
      hooks.listForGuild = original;
    }
    const logged = h.logs.lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((line) => line['msg'] === 'interaction failed');
    expect(logged).toMatchObject({
      command: 'webhook',
      subcommand: 'list',
      guildId: h.guild.id,
      err: { message: 'disk I/O error' },
    });
  });
});
