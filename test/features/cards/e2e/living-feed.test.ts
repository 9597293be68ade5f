import { afterEach, describe, expect, it } from 'vitest';

import type { FakeMessage, Invoker } from '../../../../fakes/discord/index.js';
import { setEscalation, startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';

/**
 * The living feed end to end: modcall cards staff claim and resolve, and cards that follow their case, session
 * or shift, with the real bot against the fake Discord.
 */
describe('a living feed', () => {
  let h: FeedHarness | undefined;

  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const click = (message: FakeMessage, label: string, as: Invoker) =>
    clickButton(h!.discord, h!.guild.id, message, label, as);
  const patchesOf = (messageId: string) =>
    h!.discord.requests.filter(
      (request) => request.method === 'PATCH' && request.path.endsWith(`/messages/${messageId}`),
    );
  const current = (channel: 'modcalls' | 'cases' | 'sessions' | 'shifts', id: string | undefined) =>
    h!.discord.messages(h!.channel(channel)).find((message) => message.id === id);
  const text = (message: FakeMessage | undefined) => JSON.stringify(message?.embeds ?? []);

  it('a modcall is a card with Claim and Resolve: one claim, refused to a second moderator, resolved after a restart', async () => {
    h = await startFeedHarness();
    const moderatorA = h.discord.addMember(h.guild.id, { username: 'mod-a', roleIds: [h.moderatorsRoleId] });
    const moderatorB = h.discord.addMember(h.guild.id, { username: 'mod-b', roleIds: [h.moderatorsRoleId] });
    const outsider = h.discord.addMember(h.guild.id, { username: 'visitor' });

    expect(await h.deliver(SAMPLE_DELIVERIES.modcall)).toBe(204);
    const [card] = await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
    if (!card) throw new Error('no modcall card');
    // Confirmed (and its card recorded) once nothing is open.
    await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, 'confirmed');
    expect(card.content).toBe(`<@&${h.moderatorsRoleId}>`);
    expect(
      (card.components as Array<{ components: Array<{ label: string }> }>).flatMap((row) =>
        row.components.map((button) => button.label),
      ),
    ).toEqual(['Claim', 'Resolve']);

    const refused = await click(card, 'Claim', { userId: outsider });
    expect(refused.reply?.content).toBe(
      `Only members with <@&${h.moderatorsRoleId}> or Manage Server can claim modcalls.`,
    );

    await click(card, 'Claim', { userId: moderatorA });
    const claimed = current('modcalls', card.id);
    expect(text(claimed)).toContain(`Claimed by <@${moderatorA}> · `);
    expect(text(claimed)).toMatch(/after the call/);

    const second = await click(claimed!, 'Claim', { userId: moderatorB });
    expect(second.reply).toMatchObject({ content: `Already claimed by <@${moderatorA}>.`, ephemeral: true });
    expect(text(current('modcalls', card.id))).toBe(text(claimed));

    await h.restart();
    await click(current('modcalls', card.id)!, 'Resolve', { userId: moderatorA });
    const resolved = current('modcalls', card.id);
    expect(text(resolved)).toContain(`Resolved by <@${moderatorA}>`);
    expect(resolved?.components).toEqual([]);
    expect(h.discord.messages(h.channel('modcalls'))).toHaveLength(1);
    expect(h.discord.violations).toEqual([]);
  });

  it('escalates a modcall nobody claimed: one reply that pings the escalation role only', async () => {
    // A "minute" of escalate-after lasts 300 ms here.
    h = await startFeedHarness({ escalationTimings: { minuteMs: 300, checkEveryMs: 50 } });
    const leads = h.guild.roles['Leads'] ?? '';
    expect(await setEscalation(h, 1, leads)).toBe(
      `A modcall nobody claims within 1 min gets one reply that pings <@&${leads}>.`,
    );

    expect(await h.deliver(SAMPLE_DELIVERIES.modcall)).toBe(204);
    const [card] = await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
    const [, reply] = await h.discord.waitForMessages(h.channel('modcalls'), 2, 10_000);
    expect(reply?.body['message_reference']).toMatchObject({ message_id: card?.id });
    expect(reply?.allowed_mentions).toEqual({ parse: [], roles: [leads], replied_user: false });
    expect(reply?.content).toContain(`<@&${leads}>`);
    // Exactly one, however long it stays unclaimed.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(h.discord.messages(h.channel('modcalls'))).toHaveLength(2);
  });

  it.each([403, 404])(
    'an escalation Discord refuses for good (%i) is tried once and given up, not retried at every check',
    async (status) => {
      h = await startFeedHarness({ escalationTimings: { minuteMs: 300, checkEveryMs: 50 } });
      const modcalls = h.channel('modcalls');
      await setEscalation(h, 1, h.guild.roles['Leads'] ?? '');
      expect(await h.deliver(SAMPLE_DELIVERIES.modcall)).toBe(204);
      await h.discord.waitForMessages(modcalls, 1, 10_000);
      // The channel is taken from the bot (or deleted) before the escalation falls due.
      h.discord.failChannel(modcalls, { status });
      const posts = () =>
        h!.discord.requests.filter(
          (request) => request.method === 'POST' && request.path.endsWith(`/channels/${modcalls}/messages`),
        );
      await h.discord.waitFor(() => posts().length === 2, 10_000, 'the escalation tried');
      // Twenty checks later: still the one try, and one log line saying it was given up.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(posts()).toHaveLength(2);
      const givenUp = h.logs
        .text()
        .split('\n')
        .filter((line) => line.includes('modcall escalation given up'));
      expect(givenUp).toHaveLength(1);
      expect(givenUp[0]).toContain(`Discord ${status}`);
    },
  );

  it('three modcalls from one caller within minutes are one card, shown ×3, with one ping', async () => {
    h = await startFeedHarness();
    const call = SAMPLE_DELIVERIES.modcall;
    for (const [i, id] of ['call-1', 'call-2', 'call-3'].entries()) {
      const at = call.data.at + i * 60_000;
      expect(await h.deliver({ ...call, id, data: { ...call.data, at } })).toBe(204);
      await h.discord.waitFor(
        async () => (await h!.bot.store.deliveries.countOpen()) === 0,
        10_000,
        `call ${i + 1} handled`,
      );
    }
    const cards = h.discord.messages(h.channel('modcalls'));
    expect(cards).toHaveLength(1);
    expect(text(cards[0])).toContain('Called 3 times');
    const pings = h.discord.requests.filter(
      (request) => request.method === 'POST' && request.path.endsWith(`/channels/${h!.channel('modcalls')}/messages`),
    );
    expect(pings).toHaveLength(1);
    expect(patchesOf(cards[0]?.id ?? '')).toHaveLength(2);
  });

  it("a caller's call from before their card's window, delivered late, is a card of its own", async () => {
    h = await startFeedHarness();
    const call = SAMPLE_DELIVERIES.modcall;
    // The call at `at` makes the card; one made 30 min earlier arrives after it (a retried delivery).
    for (const [id, at] of [
      ['call-now', call.data.at],
      ['call-earlier', call.data.at - 30 * 60_000],
    ] as const) {
      expect(await h.deliver({ ...call, id, data: { ...call.data, at } })).toBe(204);
      await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, `${id} handled`);
    }
    const cards = h.discord.messages(h.channel('modcalls'));
    expect(cards).toHaveLength(2);
    expect(cards.map((card) => text(card).includes('Called 2 times'))).toEqual([false, false]);
  });

  it('case.voided edits the case card and replies to it; a session end turns its card into the summary', async () => {
    h = await startFeedHarness();
    const created = { ...SAMPLE_DELIVERIES['case.created'], id: 'case-42' };
    expect(await h.deliver(created)).toBe(204);
    const [original] = await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    if (!original) throw new Error('no case card');

    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.voided'], id: 'void-42' })).toBe(204);
    await h.discord.waitFor(() => h!.discord.messages(h!.channel('cases')).length === 2, 10_000, 'the reply');
    expect(patchesOf(original.id)).toHaveLength(1);
    expect(text(current('cases', original.id))).toContain('Voided');
    const reply = h.discord.messages(h.channel('cases'))[1];
    expect(reply?.body['message_reference']).toMatchObject({ message_id: original.id });
    expect(reply?.embeds).toEqual([]);

    expect(await h.deliver(SAMPLE_DELIVERIES['session.started'])).toBe(204);
    const [session] = await h.discord.waitForMessages(h.channel('sessions'), 1, 10_000);
    expect(await h.deliver(SAMPLE_DELIVERIES['session.ended'])).toBe(204);
    await h.discord.waitFor(() => patchesOf(session?.id ?? '').length === 1, 10_000, 'the session card edited');
    const summary = text(current('sessions', session?.id));
    expect(summary).toContain('Session ended');
    // Joins and cases from the end, who started it and how long it ran from the start the card showed.
    expect(summary).toContain('"name":"Joins","value":"87"');
    expect(summary).toContain('"name":"Cases","value":"6"');
    expect(summary).toContain('"name":"Started by"');
    expect(summary).toMatch(/"name":"Duration","value":"\d+ h \d{2} min"/);
    expect(h.discord.messages(h.channel('sessions'))).toHaveLength(1);
    expect(h.discord.violations).toEqual([]);
  });

  it('case.voided after a restart still edits the card posted before it', async () => {
    h = await startFeedHarness();
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.created'], id: 'restart-created' })).toBe(204);
    const [original] = await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, 'confirmed');
    await h.restart();
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.voided'], id: 'restart-voided' })).toBe(204);
    await h.discord.waitFor(() => h!.discord.messages(h!.channel('cases')).length === 2, 10_000, 'the reply');
    expect(patchesOf(original?.id ?? '')).toHaveLength(1);
    expect(text(current('cases', original?.id))).toContain('Voided');
    expect(h.discord.messages(h.channel('cases'))[1]?.body['message_reference']).toMatchObject({
      message_id: original?.id,
    });
  });

  it('both events of a case in one burst: one post, already voided, no edit', async () => {
    h = await startFeedHarness({ batchWindow: { quietMs: 1_000, maxMs: 2_000 } });
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.created'], id: 'burst-created' })).toBe(204);
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.voided'], id: 'burst-voided' })).toBe(204);
    const [message] = await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, 'both confirmed');
    expect(h.discord.messages(h.channel('cases'))).toHaveLength(1);
    expect(message?.embeds).toHaveLength(1);
    expect(text(message)).toContain('Voided');
    expect(patchesOf(message?.id ?? '')).toHaveLength(0);
  });

  it('the case card was deleted: the voided case is posted on its own, with no retry loop', async () => {
    h = await startFeedHarness();
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.created'], id: 'gone-created' })).toBe(204);
    const [original] = await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    h.discord.deleteMessage(original?.id ?? '');
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['case.voided'], id: 'gone-voided' })).toBe(204);
    const [standalone] = await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, 'confirmed');
    expect(text(standalone)).toContain('Voided');
    expect(standalone?.body['message_reference']).toBeUndefined();
    expect(patchesOf(original?.id ?? '')).toHaveLength(1);
  });
});
