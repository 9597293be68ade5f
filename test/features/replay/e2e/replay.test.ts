import { afterEach, describe, expect, it } from 'vitest';

import { chatInputCommand, commandOption } from '../../../../fakes/discord/index.js';
import { replayModule } from '../../../../src/features/replay/store/replay-module.js';
import { postedDeliveryIds, runFeedCommand, startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';
import { createTestDatabase, POSTGRES_URL } from '../../../helpers/postgres-database.js';

/**
 * /feed replay end to end, the real bot against the fake Discord: an admin routes an event to another channel and
 * replays the last hours of it there. The fake takes one message a channel every 250 ms, so a replay of several
 * messages is under way long enough to be interrupted.
 */
const RATE = { messageRateLimit: { limit: 1, windowMs: 250 } };

const kase = (n: number) => {
  const sample = SAMPLE_DELIVERIES['case.created'];
  return { ...sample, id: `case-${n}`, data: { case: { ...sample.data.case, number: n } } };
};
const shift = (n: number) => ({ ...SAMPLE_DELIVERIES['shift.started'], id: `shift-${n}` });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function harness(engine: 'sqlite' | 'postgres', config: Record<string, unknown> = {}): Promise<FeedHarness> {
  let storeUrl: Record<string, string> = {};
  if (engine === 'postgres') {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    storeUrl = { STORE_URL: database.url };
  }
  const h = await startFeedHarness({ discord: RATE, config: { ...storeUrl, ...config } });
  cleanups.push(() => h.stop());
  return h;
}

/** Delivers the cases and waits until the feed posted them all to #cases, live. */
async function postLive(h: FeedHarness, ids: readonly string[], deliveries: readonly object[]): Promise<void> {
  for (const delivery of deliveries) expect(await h.deliver(delivery)).toBe(204);
  await h.discord.waitFor(
    () => postedDeliveryIds(h.discord, h.channel('cases')).length === ids.length,
    20_000,
    'the cases posted live',
  );
}

/** Every embed footer of a channel's messages, in the order Discord received them. */
function footers(h: FeedHarness, channelId: string): string[] {
  return h.discord.messages(channelId).flatMap((message) => message.embeds.map((embed) => embed.footer?.text ?? ''));
}

const ENGINES = [
  { engine: 'sqlite' as const, skip: false },
  { engine: 'postgres' as const, skip: !POSTGRES_URL },
];

describe.each(ENGINES)('/feed replay on $engine', ({ engine, skip }) => {
  it.skipIf(skip)(
    'offered by /feed set, replays each event once and in order, marked, across a restart of the bot',
    async () => {
      const h = await harness(engine);
      const count = 45;
      const ids = Array.from({ length: count }, (_, n) => `case-${n + 1}`);
      await postLive(
        h,
        ids,
        ids.map((_, n) => kase(n + 1)),
      );
      const backup = h.channel('backup');

      const set = await h.discord.dispatchInteraction(
        chatInputCommand({
          name: 'feed',
          subcommand: 'set',
          options: [commandOption.string('event', 'case.created'), commandOption.channel('channel', backup)],
          as: 'admin',
          guildId: h.guild.id,
        }),
      );
      expect(set.reply?.content).toBe(`case.created now goes to <#${backup}>.`);
      const offer = set.reply;
      if (!offer) throw new Error('no reply to /feed set');
      const started = await clickButton(h.discord, h.guild.id, offer, 'Replay the last 24 h here');
      expect(started.reply?.content).toContain(`Replaying the last 24 h of events that now go to <#${backup}>`);

      // Stopped and started again while the replay is under way (a message or two of five posted).
      await h.discord.waitFor(() => postedDeliveryIds(h.discord, backup).length >= 10, 20_000, 'the replay begun');
      expect(postedDeliveryIds(h.discord, backup).length).toBeLessThan(count);
      await h.restart();

      await h.discord.waitFor(
        () => postedDeliveryIds(h.discord, backup).length >= count,
        30_000,
        'the replay resumed and done',
      );
      // Each once, in store order, each marked.
      expect(postedDeliveryIds(h.discord, backup)).toEqual(ids);
      expect(footers(h, backup).every((footer) => footer.startsWith('Replayed · '))).toBe(true);
      // Live posts are not marked.
      expect(footers(h, h.channel('cases')).some((footer) => footer.startsWith('Replayed'))).toBe(false);

      // A second replay into the channel posts nothing again: every event of the window is there already.
      const replays = h.bot.store.of(replayModule);
      await h.discord.waitFor(async () => (await replays.runningIn(backup)) === undefined, 10_000, 'the run ended');
      const again = await runFeedCommand(h, 'replay', [
        commandOption.channel('channel', backup),
        commandOption.integer('hours', 2),
      ]);
      expect(again).toContain('Replaying the last 2 h');
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      expect(postedDeliveryIds(h.discord, backup)).toEqual(ids);
      expect(h.discord.violations).toEqual([]);
    },
    90_000,
  );
});

describe('/feed replay beside the live feed', () => {
  it('a replay Discord keeps failing never holds up the live events of other channels, and finishes once it stops failing', async () => {
    const h = await harness('sqlite');
    const ids = Array.from({ length: 25 }, (_, n) => `case-${n + 1}`);
    await postLive(
      h,
      ids,
      ids.map((_, n) => kase(n + 1)),
    );
    const backup = h.channel('backup');
    await runFeedCommand(h, 'set', [
      commandOption.string('event', 'case.created'),
      commandOption.channel('channel', backup),
    ]);
    h.discord.failRequests({ status: 500, match: new RegExp(`^/channels/${backup}/messages`) });
    const reply = await runFeedCommand(h, 'replay', [commandOption.channel('channel', backup)]);
    expect(reply).toContain('Replaying the last 24 h');
    await h.discord.waitFor(
      () => h.discord.requests.some((request) => request.path.startsWith(`/channels/${backup}/messages`)),
      10_000,
      'the replay tried',
    );

    const shifts = Array.from({ length: 6 }, (_, n) => `shift-${n + 1}`);
    for (let n = 0; n < shifts.length; n += 1) expect(await h.deliver(shift(n + 1))).toBe(204);
    await h.discord.waitFor(
      () => postedDeliveryIds(h.discord, h.channel('shifts')).length === shifts.length,
      10_000,
      'the live shifts posted while the replay fails',
    );
    expect(postedDeliveryIds(h.discord, h.channel('shifts'))).toEqual(shifts);
    expect(postedDeliveryIds(h.discord, backup)).toEqual([]);

    h.discord.clearFaults();
    await h.discord.waitFor(
      () => postedDeliveryIds(h.discord, backup).length >= ids.length,
      30_000,
      'the replay done once Discord takes it',
    );
    expect(postedDeliveryIds(h.discord, backup)).toEqual(ids);
  }, 90_000);

  it('a replay into a channel Discord refuses stops there, live events elsewhere go on, and a new replay posts what it did not', async () => {
    const h = await harness('sqlite');
    const ids = Array.from({ length: 15 }, (_, n) => `case-${n + 1}`);
    await postLive(
      h,
      ids,
      ids.map((_, n) => kase(n + 1)),
    );
    const backup = h.channel('backup');
    await runFeedCommand(h, 'set', [
      commandOption.string('event', 'case.created'),
      commandOption.channel('channel', backup),
    ]);
    // Discord refuses the replay's posts (the command itself saw the channel: it asks Discord when it checks).
    h.discord.failRequests({ status: 403, match: new RegExp(`^/channels/${backup}/messages`) });
    expect(await runFeedCommand(h, 'replay', [commandOption.channel('channel', backup)])).toContain('Replaying');
    const replays = h.bot.store.of(replayModule);
    const stopped = await h.discord.waitFor(
      async () => (await replays.listAll()).runs.find((run) => run.failure !== null),
      10_000,
      'the replay stopped',
    );
    expect(stopped.endedAt).not.toBeNull();
    expect(stopped.posted).toBe(0);
    expect(await h.deliver(shift(1))).toBe(204);
    await h.discord.waitForMessages(h.channel('shifts'), 1);

    h.discord.clearFaults();
    expect(await runFeedCommand(h, 'replay', [commandOption.channel('channel', backup)])).toContain('Replaying');
    await h.discord.waitFor(() => postedDeliveryIds(h.discord, backup).length >= ids.length, 20_000, 'replayed');
    expect(postedDeliveryIds(h.discord, backup)).toEqual(ids);
  }, 60_000);

  it('refuses hours past the replay window with what the window is, and a Replay click from a member without Manage Server', async () => {
    const h = await harness('sqlite', { REPLAY_WINDOW_HOURS: 6 });
    const backup = h.channel('backup');
    const refused = await runFeedCommand(h, 'replay', [
      commandOption.channel('channel', backup),
      commandOption.integer('hours', 12),
    ]);
    expect(refused).toBe(
      'I keep posted events for 6 h (the replay window), so I can replay at most the last 6 hours: ask for 6 or fewer. Nothing was started.',
    );

    const set = await h.discord.dispatchInteraction(
      chatInputCommand({
        name: 'feed',
        subcommand: 'default',
        options: [commandOption.channel('channel', backup)],
        as: 'admin',
        guildId: h.guild.id,
      }),
    );
    // Within a 6 h window, the offer is the whole window.
    const offer = set.reply;
    if (!offer) throw new Error('no reply to /feed default');
    const click = await clickButton(h.discord, h.guild.id, offer, 'Replay the last 6 h here', 'member');
    expect(click.reply?.content).toBe('You need the Manage Server permission to use this command.');
  }, 60_000);
});
