import { afterEach, describe, expect, it } from 'vitest';

import { EVENT_NAMES, type EventName } from '../../src/upstream/schemas.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { postedDeliveryIds, startFeedHarness, type FeedChannel, type FeedHarness } from './feed-harness.js';

let h: FeedHarness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** What a staff member reads in each event's message, and where it must land. */
const EXPECTED: Record<EventName, { channel: FeedChannel; title: string; shows: string[] }> = {
  'case.created': {
    channel: 'cases',
    title: 'Case #1042 · Warn',
    shows: [
      'https://www.roblox.com/users/2391045817/profile',
      '<@284756102938475610>',
      'ramming other players',
      'https://cdn.example.test/clips/1042.mp4',
    ],
  },
  'case.voided': { channel: 'cases', title: 'Case #1042 · Warn · Voided', shows: ['<@193847561029384756>'] },
  'session.started': { channel: 'sessions', title: 'Session started · Friday night patrol', shows: ['Serious RP'] },
  'session.ended': { channel: 'sessions', title: 'Session ended · Friday night patrol', shows: ['87', '6'] },
  modcall: { channel: 'modcalls', title: 'Modcall', shows: ['https://www.roblox.com/users/1029384756/profile'] },
  'shift.started': { channel: 'shifts', title: 'Shift started', shows: ['<@284756102938475610>'] },
  'shift.ended': { channel: 'shifts', title: 'Shift ended', shows: ['2 h 05 min'] },
};

/**
 * A modcall from a caller of its own: the same caller within 10 minutes would be one card, edited (see
 * living-feed.test.ts), and these tests count posts.
 */
const modcall = (id: string, extra: object = {}) => ({
  ...SAMPLE_DELIVERIES.modcall,
  id,
  data: { ...SAMPLE_DELIVERIES.modcall.data, caller: { robloxId: `caller-${id}`, name: `caller ${id}` } },
  ...extra,
});
const caseCreated = (id: string, reason: string) => ({
  ...SAMPLE_DELIVERIES['case.created'],
  id,
  data: { case: { ...SAMPLE_DELIVERIES['case.created'].data.case, reason } },
});

describe('the event feed against Discord', () => {
  it('shows each of the seven events once, in its channel, with the embed staff expect', async () => {
    h = await startFeedHarness();
    for (const name of EVENT_NAMES) {
      const expected = EXPECTED[name];
      const channelId = h.channel(expected.channel);
      expect(await h.deliver(SAMPLE_DELIVERIES[name])).toBe(204);
      await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 10_000, `${name} shown`);
      // A case's, session's or shift's later event turns the first event's card into its final state.
      const shown = h.discord
        .messages(channelId)
        .flatMap((message) => message.embeds)
        .filter((embed) => embed.footer?.text === `Server 4821337 · Delivery ${SAMPLE_DELIVERIES[name].id}`);
      expect(shown, name).toHaveLength(1);
      const [embed] = shown;
      expect(embed?.title).toBe(expected.title);
      expect(embed?.timestamp).toBe(new Date(SAMPLE_DELIVERIES[name].at).toISOString());
      for (const text of expected.shows) expect(JSON.stringify(embed)).toContain(text);
    }
    // Four cards (case, session, modcall, shift: the later events edited theirs) and the voided case's reply.
    const total = h.discord.allMessages().filter((m) => m.source === 'channel').length;
    expect(total).toBe(5);
    expect(h.discord.violations).toEqual([]);
  });

  it('pings only the configured role on a modcall, and nobody for @everyone or mentions in user text', async () => {
    h = await startFeedHarness();
    expect(await h.deliver(modcall('ping-1', { data: { caller: { robloxId: '1', name: '@everyone' }, at: 1 } }))).toBe(
      204,
    );
    expect(
      await h.deliver(caseCreated('ping-2', `@everyone @here <@&${h.moderatorsRoleId}> <@284756102938475610> look`)),
    ).toBe(204);
    const [call] = await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
    const [kase] = await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    expect(call?.content).toBe(`<@&${h.moderatorsRoleId}>`);
    expect(call?.allowed_mentions).toEqual({ parse: [], roles: [h.moderatorsRoleId] });
    expect(kase?.content ?? '').toBe('');
    expect(kase?.allowed_mentions).toEqual({ parse: [] });
    expect(h.discord.violations).toEqual([]);
  });

  it('posts a burst of 50 events to one channel complete, in order, in messages of up to 10 embeds', async () => {
    h = await startFeedHarness({ discord: { messageRateLimit: { limit: 5, windowMs: 1_000 } } });
    const ids = Array.from({ length: 50 }, (_, i) => `burst-${String(i).padStart(2, '0')}`);
    // Back to back, as the service sends them; arrival order is the order the feed must keep.
    for (const id of ids) expect(await h.deliver(caseCreated(id, `reason ${id}`))).toBe(204);
    const channelId = h.channel('cases');
    await h.discord.waitFor(() => postedDeliveryIds(h!.discord, channelId).length >= 50, 20_000, '50 embeds');
    expect(postedDeliveryIds(h.discord, channelId)).toEqual(ids);
    const sizes = h.discord.messages(channelId).map((m) => m.embeds.length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(10);
    // Batching: far fewer messages than events.
    expect(sizes.length).toBeLessThanOrEqual(10);
    expect(h.discord.violations).toEqual([]);
  });

  it('loses nothing and doubles nothing when Discord answers 500 for 30 s, then recovers', async () => {
    h = await startFeedHarness();
    h.discord.failRequests({ status: 500, forMs: 30_000, match: /\/messages$/ });
    const ids = Array.from({ length: 12 }, (_, i) => `outage-${i}`);
    for (const id of ids) expect(await h.deliver(caseCreated(id, `reason ${id}`))).toBe(204);
    await delay(5_000);
    expect(h.discord.messages(h.channel('cases'))).toHaveLength(0);
    expect((await h.bot.store.deliveries.statusOf(h.guild.id)).retrying).toEqual([
      expect.objectContaining({ channelId: h.channel('cases') }),
    ]);
    await h.discord.waitFor(
      () => postedDeliveryIds(h!.discord, h!.channel('cases')).length >= ids.length,
      45_000,
      'all after the outage',
    );
    await delay(500);
    expect(postedDeliveryIds(h.discord, h.channel('cases'))).toEqual(ids);
    await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 5_000, 'the outbox emptied');
  }, 90_000);

  it('posts once when Discord received a message but the answer never came back (nonce)', async () => {
    h = await startFeedHarness({ restTimeoutMs: 1_000 });
    h.discord.hangRequests({ count: 1, forMs: 1_500, match: /\/messages$/ });
    expect(await h.deliver(modcall('slow-1'))).toBe(204);
    await h.discord.waitFor(
      async () => (await h!.bot.store.deliveries.countOpen()) === 0,
      20_000,
      'the entry confirmed',
    );
    // The held first try reaches Discord after the retry: the nonce makes Discord answer with the same message.
    await h.discord.waitFor(() => h!.discord.nonceDuplicates >= 1, 5_000, 'the held request processed');
    expect(postedDeliveryIds(h.discord, h.channel('modcalls'))).toEqual(['slow-1']);
  }, 30_000);

  it('posts once when the answer was lost and the resend comes after Discord forgot the nonce', async () => {
    // Discord recognises a nonce for a short time here (and the bot is told so): the resend must look first.
    h = await startFeedHarness({ restTimeoutMs: 1_000, discord: { nonceWindowMs: 500 }, nonceWindowMs: 500 });
    // Every try of the first send (discord.js tries 4 times) waits for an answer until the bot gives up.
    h.discord.hangRequests({ count: 4, forMs: 5_000, match: /\/messages$/ });
    expect(await h.deliver(caseCreated('late-1', 'answer lost'))).toBe(204);
    await h.discord.waitFor(() => h!.discord.requests.some((r) => r.method === 'POST'), 5_000, 'the first send');
    // Stopped while its send waits for an answer that never comes; Discord posts it meanwhile, and the bot is back
    // only once Discord has forgotten the nonce.
    await h.restart(async () => {
      await h!.discord.waitFor(() => h!.discord.messages(h!.channel('cases')).length === 1, 5_000, 'the held post');
      await delay(700);
    });
    await h.discord.waitFor(
      async () => (await h!.bot.store.deliveries.countOpen()) === 0,
      20_000,
      'the entry confirmed',
    );
    expect(postedDeliveryIds(h.discord, h.channel('cases'))).toEqual(['late-1']);
  }, 30_000);

  it('keeps the events of a 403 channel until it is re-routed, while other channels keep flowing', async () => {
    h = await startFeedHarness();
    h.discord.failChannel(h.channel('modcalls'), { status: 403 });
    expect(await h.deliver(modcall('blocked-1'))).toBe(204);
    expect(await h.deliver(modcall('blocked-2'))).toBe(204);
    expect(await h.deliver(caseCreated('flowing-1', 'still flowing'))).toBe(204);
    await h.discord.waitForMessages(h.channel('cases'), 1, 10_000);
    await h.discord.waitFor(
      async () => (await h!.bot.store.deliveries.countOpen()) === 2,
      10_000,
      'the cases entry confirmed',
    );
    await h.discord.waitFor(
      async () => (await h!.bot.store.deliveries.statusOf(h!.guild.id)).broken.length === 1,
      10_000,
      'the route marked broken',
    );
    // Kept in the store as held for a broken channel: not waiting, not lost.
    expect(await h.bot.store.deliveries.statusOf(h.guild.id)).toMatchObject({
      waiting: 0,
      heldBroken: 2,
      broken: [{ channelId: h.channel('modcalls'), status: 403 }],
    });
    expect(await h.deliver(caseCreated('flowing-2', 'and again'))).toBe(204);
    await h.discord.waitFor(
      () => postedDeliveryIds(h!.discord, h!.channel('cases')).length === 2,
      10_000,
      'cases keep flowing',
    );
    await h.discord.waitFor(
      async () => (await h!.bot.store.deliveries.countOpen()) === 2,
      5_000,
      'only the blocked entries kept',
    );
    expect(h.logs.lines.filter((line) => line.includes('channel unusable'))).toHaveLength(1);

    await h.bot.store.guilds.update(h.guild.id, (s) => ({
      ...s,
      routes: { ...s.routes, modcall: h!.channel('backup') },
    }));
    await h.discord.waitFor(
      () => postedDeliveryIds(h!.discord, h!.channel('backup')).length === 2,
      10_000,
      're-routed events',
    );
    expect(postedDeliveryIds(h.discord, h.channel('backup'))).toEqual(['blocked-1', 'blocked-2']);
    await h.discord.waitFor(async () => (await h!.bot.store.deliveries.countOpen()) === 0, 5_000, 'the outbox emptied');
  });

  it('posts the rest exactly once after a stop mid-burst and a restart on the same SQLite file', async () => {
    h = await startFeedHarness({ discord: { messageRateLimit: { limit: 1, windowMs: 400 } } });
    const ids = Array.from({ length: 30 }, (_, i) => `restart-${String(i).padStart(2, '0')}`);
    for (const id of ids) expect(await h.deliver(modcall(id))).toBe(204);
    await h.discord.waitForMessages(h.channel('modcalls'), 1, 10_000);
    await h.restart();
    expect(await h.bot.store.deliveries.countOpen()).toBeGreaterThan(0);
    await h.discord.waitFor(
      () => postedDeliveryIds(h!.discord, h!.channel('modcalls')).length >= ids.length,
      20_000,
      'the rest',
    );
    await delay(800);
    expect(postedDeliveryIds(h.discord, h.channel('modcalls'))).toEqual(ids);
    // A repeated delivery after the restart is recognised, not posted again.
    expect(await h.deliver(modcall('restart-00'))).toBe(200);
  }, 40_000);
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
