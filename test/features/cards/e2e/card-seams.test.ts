import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import type { FakeMessage } from '../../../../fakes/discord/index.js';
import { startFeedHarness, type FeedChannel, type FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';

/**
 * Where the lanes and the living cards meet: events of one subject routed to different channels, with Discord
 * failing one channel while the other recovers. Every delivery is posted once, and a card ends in its subject's
 * final state whichever lane recovers first.
 */
describe('cards across channels under per-channel Discord faults', () => {
  let h: FeedHarness | undefined;

  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const text = (message: FakeMessage | undefined) => JSON.stringify(message?.embeds ?? []);
  const allText = (channel: FeedChannel) => h!.discord.messages(h!.channel(channel)).map(text).join('\n');

  /** Routes `routed` events to their channels, everything else to #other. */
  async function route(routed: Record<string, FeedChannel>): Promise<void> {
    await h!.bot.store.guilds.update(h!.guild.id, (settings) => ({
      ...settings,
      routes: Object.fromEntries(Object.entries(routed).map(([event, name]) => [event, h!.channel(name)])),
      defaultChannelId: h!.channel('other'),
    }));
  }

  /** Every delivery in the store is posted (nothing open) and is remembered as posted. */
  async function waitUntilAllPosted(ids: readonly string[]): Promise<void> {
    await h!.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 20_000, 'all posted');
    for (const id of ids) expect(await h!.bot.store.deliveries.stateOf(h!.hookId, id)).toBe('posted');
  }

  async function waitUntilPosted(id: string): Promise<void> {
    await h!.discord.waitFor(
      async () => (await h!.bot.store.deliveries.stateOf(h!.hookId, id)) === 'posted',
      20_000,
      `${id} posted`,
    );
  }

  /** The channel's lane has written down a message of `count` entries and Discord refused it at least once. */
  async function waitUntilWrittenDownAndFailed(channel: FeedChannel, count: number): Promise<void> {
    const channelId = h!.channel(channel);
    await h!.discord.waitFor(
      async () => {
        const entries = await h!.bot.store.deliveries.nextFor(channelId, 10);
        const nonce = entries[0]?.writtenNonce ?? null;
        return nonce !== null && entries.length === count && entries.every((entry) => entry.writtenNonce === nonce);
      },
      10_000,
      `${channel} wrote down ${count}`,
    );
    const nonce = (await h!.bot.store.deliveries.nextFor(channelId, 10))[0]?.writtenNonce;
    await h!.discord.waitFor(
      () =>
        h!.discord.requests.some(
          (request) =>
            request.method === 'POST' &&
            request.path === `/channels/${channelId}/messages` &&
            (request.body as { nonce?: string } | undefined)?.nonce === nonce,
        ),
      10_000,
      `${channel}'s message sent and refused`,
    );
  }

  const caseCreated = (id: string, number: number) => {
    const sample = SAMPLE_DELIVERIES['case.created'];
    return { ...sample, id, data: { case: { ...sample.data.case, number } } };
  };
  const caseVoided = (id: string, number: number) => {
    const sample = SAMPLE_DELIVERIES['case.voided'];
    return { ...sample, id, data: { case: { ...sample.data.case, number } } };
  };

  it('a message written down before another lane posted a card is resent exactly: no entry of it is lost', async () => {
    // One message of #other waits for the whole burst.
    h = await startFeedHarness({ batchWindow: { quietMs: 400, maxMs: 2_000 } });
    await route({ 'shift.started': 'shifts' });
    h.discord.failChannel(h.channel('shifts'), { status: 500 });
    h.discord.failChannel(h.channel('other'), { status: 500 });

    expect(await h.deliver({ ...SAMPLE_DELIVERIES['shift.started'], id: 'shift-start' })).toBe(204);
    expect(await h.deliver(caseCreated('case-a', 501))).toBe(204);
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['shift.ended'], id: 'shift-end' })).toBe(204);
    expect(await h.deliver(caseCreated('case-b', 502))).toBe(204);
    await waitUntilWrittenDownAndFailed('other', 3);

    // #shifts recovers first: the shift's card exists before #other's message is sent again.
    h.discord.restoreChannel(h.channel('shifts'));
    await waitUntilPosted('shift-start');
    h.discord.restoreChannel(h.channel('other'));
    await waitUntilAllPosted(['shift-start', 'case-a', 'shift-end', 'case-b']);

    const other = allText('other');
    expect(other).toContain('Case #501');
    expect(other).toContain('Shift ended');
    expect(other).toContain('Case #502');
    // The shift's card, posted before its end was, shows the end too.
    const [shiftCard, ...more] = h.discord.messages(h.channel('shifts'));
    expect(more).toEqual([]);
    expect(text(shiftCard)).toContain('Shift ended');
    expect(h.discord.violations).toEqual([]);
  });

  it('a case voided while its card waits in another channel: the card is posted voided (the void went first)', async () => {
    h = await startFeedHarness();
    await route({ 'case.created': 'cases' });
    h.discord.failChannel(h.channel('cases'), { status: 500 });
    h.discord.failChannel(h.channel('other'), { status: 500 });

    expect(await h.deliver(caseCreated('created-44', 44))).toBe(204);
    expect(await h.deliver(caseVoided('voided-44', 44))).toBe(204);
    await waitUntilWrittenDownAndFailed('cases', 1);
    await waitUntilWrittenDownAndFailed('other', 1);

    h.discord.restoreChannel(h.channel('other'));
    await waitUntilPosted('voided-44');
    h.discord.restoreChannel(h.channel('cases'));
    await waitUntilAllPosted(['created-44', 'voided-44']);

    const [card, ...more] = h.discord.messages(h.channel('cases'));
    expect(more).toEqual([]);
    expect(text(card)).toContain('Case #44 · Warn · Voided');
    expect(allText('other')).toContain('Case #44 · Warn · Voided');
    expect(h.discord.violations).toEqual([]);
  });

  it('a case voided while its card waits in another channel: the card is edited to voided (the card went first)', async () => {
    h = await startFeedHarness();
    await route({ 'case.created': 'cases' });
    h.discord.failChannel(h.channel('cases'), { status: 500 });
    h.discord.failChannel(h.channel('other'), { status: 500 });

    expect(await h.deliver(caseCreated('created-45', 45))).toBe(204);
    expect(await h.deliver(caseVoided('voided-45', 45))).toBe(204);
    await waitUntilWrittenDownAndFailed('cases', 1);
    await waitUntilWrittenDownAndFailed('other', 1);

    h.discord.restoreChannel(h.channel('cases'));
    await waitUntilPosted('created-45');
    h.discord.restoreChannel(h.channel('other'));
    await waitUntilAllPosted(['created-45', 'voided-45']);

    await h.discord.waitFor(
      () => text(h!.discord.messages(h!.channel('cases'))[0]).includes('Voided'),
      10_000,
      'the case card voided',
    );
    expect(h.discord.messages(h.channel('cases'))[0]?.embeds).toHaveLength(1);
    expect(h.discord.violations).toEqual([]);
  });

  it("a void whose reply the old card's channel refuses: the card is edited, the void's own channel posts on", async () => {
    h = await startFeedHarness();
    await route({ 'case.created': 'cases' });
    expect(await h.deliver(caseCreated('created-46', 46))).toBe(204);
    await waitUntilPosted('created-46');
    // The old card's channel is made read-only for the bot (it may still edit its own messages there).
    h.discord.setChannelOverwrite(h.channel('cases'), {
      id: h.discord.botUserId,
      type: 1,
      deny: PermissionFlagsBits.SendMessages,
    });

    expect(await h.deliver(caseVoided('voided-46', 46))).toBe(204);
    await waitUntilPosted('voided-46');
    expect(await h.deliver({ ...SAMPLE_DELIVERIES['shift.started'], id: 'shift-after' })).toBe(204);
    await waitUntilAllPosted(['created-46', 'voided-46', 'shift-after']);

    // The card shows the void; its reply was refused there, and that refusal held nothing of #other.
    const [card, ...more] = h.discord.messages(h.channel('cases'));
    expect(more).toEqual([]);
    expect(text(card)).toContain('Case #46 · Warn · Voided');
    const replies = h.discord.requests.filter(
      (request) =>
        request.method === 'POST' &&
        request.path === `/channels/${h!.channel('cases')}/messages` &&
        (request.body as { content?: string }).content?.includes('was voided by') === true,
    );
    expect(replies.length).toBeGreaterThan(0);
    expect(allText('other')).toContain('Shift started');
    expect(await h.bot.store.deliveries.statusOf(h.guild.id)).toMatchObject({
      waiting: 0,
      heldBroken: 0,
      heldRefused: 0,
      broken: [],
    });
    expect(h.logs.text()).toContain("the reply to a voided case's card was refused in the card's channel");
    expect(h.logs.text()).not.toContain('channel unusable');
    expect(h.discord.violations).toEqual([]);
  });

  it('a session whose end came before its start: the start card is posted as the summary', async () => {
    h = await startFeedHarness();
    expect(await h.deliver(SAMPLE_DELIVERIES['session.ended'])).toBe(204);
    await waitUntilPosted(SAMPLE_DELIVERIES['session.ended'].id);
    expect(await h.deliver(SAMPLE_DELIVERIES['session.started'])).toBe(204);
    await waitUntilPosted(SAMPLE_DELIVERIES['session.started'].id);

    const [ended, started] = h.discord.messages(h.channel('sessions'));
    expect(text(ended)).toContain('Session ended');
    expect(text(started)).toContain('Session ended');
    expect(text(started)).toContain('"name":"Started by"');
  });
});
