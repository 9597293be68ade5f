import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';

import {
  chatInputCommand,
  commandOption,
  DEFAULT_BOT_PERMISSIONS,
  type CommandOptionValue,
} from '../../fakes/discord/index.js';
import { CardDocuments } from '../../src/features/cards/card-documents.js';
import { dutyModule } from '../../src/features/duty/store/duty-module.js';
import { ThreadDocuments } from '../../src/features/threads/thread-documents.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { sessionEnded, sessionStarted, threadShowing } from '../features/threads/e2e/session-threads-fixtures.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import {
  runFeedCommand,
  setEscalation,
  startFeedHarness,
  type FeedHarness,
  type FeedHarnessOptions,
} from './feed-harness.js';

/** Discord recognises a nonce this long here (and the bot is told so): a later try must look for its post first. */
const NONCE_WINDOW_MS = 500;

/**
 * The messages the bot posts besides the feed (a health alert, the on-duty board, a session thread's report) when
 * Discord made the post but its answer never came back, and the bot tries again only after Discord forgot the
 * nonce: each is posted once, found again by what it shows among the bot's own messages.
 */
describe('a post whose answer was lost, tried again after the nonce window', () => {
  let h: FeedHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const start = (options: FeedHarnessOptions = {}) =>
    startFeedHarness({
      restTimeoutMs: 1_000,
      discord: { nonceWindowMs: NONCE_WINDOW_MS },
      nonceWindowMs: NONCE_WINDOW_MS,
      ...options,
    });

  /**
   * Every try of the next post to `channelId` (discord.js tries 4 times, 1 s each here) waits for an answer until
   * the bot gives up; Discord makes the message once {@link answerLate} is called.
   */
  const loseAnswers = (harness: FeedHarness, channelId: string) =>
    harness.discord.hangRequests({
      count: 4,
      match: new RegExp(`^/channels/${channelId}/messages$`),
      afterwards: 'answer',
    });

  /** Once the bot logged that it gave up (`logged`), Discord makes the post: the bot never hears of it. */
  const answerLate = async (harness: FeedHarness, logged: string) => {
    await harness.discord.waitFor(() => harness.logs.text().includes(logged), 15_000, `"${logged}" logged`);
    harness.discord.clearFaults();
  };

  const run = async (harness: FeedHarness, name: string, subcommand: string, options: CommandOptionValue[]) => {
    const draft = chatInputCommand({ name, subcommand, options, as: 'admin', guildId: harness.guild.id });
    return (await harness.discord.dispatchInteraction(draft)).reply?.content ?? '';
  };

  /** Deliveries signed with a secret the bot does not have: refused, and counted toward an alert. */
  const sendWronglySigned = async (harness: FeedHarness, count: number) => {
    for (let i = 0; i < count; i += 1) {
      const body = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: `bad-${i}-${Math.random()}` });
      const timestamp = String(Math.floor(Date.now() / 1000));
      const response = await fetch(`${harness.bot.http.url}/webhooks/${harness.hookId}`, {
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
  };

  it('posts a health alert once', async () => {
    // An alert whose post failed is tried again a second later (30 s by default), past the nonce window.
    h = await start({ healthTimings: { alertBackoff: { baseMs: 1_000, capMs: 1_000 } } });
    const harness = h;
    const alerts = harness.channel('backup');
    expect(await run(harness, 'alerts', 'set', [commandOption.channel('channel', alerts)])).toContain(
      `Health alerts go to <#${alerts}>`,
    );
    loseAnswers(harness, alerts);
    await sendWronglySigned(harness, 5);
    await answerLate(harness, 'alert not updated');
    const [made] = await harness.discord.waitForMessages(alerts, 1, 10_000);
    expect(JSON.stringify(made?.embeds)).toContain('5 in a row');
    await delay(2 * NONCE_WINDOW_MS);

    // The next refusal brings the alert up to date: the post is found, then edited.
    await sendWronglySigned(harness, 1);
    await harness.discord.waitFor(
      () => JSON.stringify(harness.discord.messages(alerts).at(-1)?.embeds).includes('6 in a row'),
      10_000,
      'the alert showing 6 refusals',
    );
    await harness.bot.health?.settled();
    expect(harness.discord.messages(alerts).map((message) => message.id)).toEqual([made?.id]);
  }, 40_000);

  it('posts the on-duty board once', async () => {
    // A failed post is tried again 2 s later: after Discord forgot the nonce of the message it made meanwhile.
    h = await start({ dutyTimings: { retryAfterMs: 2_000 } });
    const harness = h;
    const board = harness.channel('backup');
    loseAnswers(harness, board);
    expect(await run(harness, 'duty', 'board', [commandOption.channel('channel', board)])).toContain(
      `The on-duty board is now kept in <#${board}>`,
    );
    await answerLate(harness, 'the on-duty board could not be updated; tried again later');
    const [made] = await harness.discord.waitForMessages(board, 1, 10_000);
    expect(made?.embeds[0]?.title).toBe('On duty now: 0');
    await harness.discord.waitFor(
      async () => (await harness.bot.store.of(dutyModule).settingsOf(harness.guild.id)).boardMessageId !== null,
      15_000,
      "the board's message noted",
    );
    expect((await harness.bot.store.of(dutyModule).settingsOf(harness.guild.id)).boardMessageId).toBe(made?.id);
    expect(harness.discord.messages(board).map((message) => message.id)).toEqual([made?.id]);
  }, 40_000);

  it('posts the reply that escalates an unclaimed modcall once', async () => {
    // A "minute" of escalate-after lasts 300 ms; due cards are looked at every 2 s.
    // A card whose escalation failed is looked at again 2 s later (15 s by default), past the nonce window.
    h = await start({
      escalationTimings: { minuteMs: 300, checkEveryMs: 2_000, backoff: { baseMs: 2_000, capMs: 2_000 } },
    });
    const harness = h;
    const leads = harness.guild.roles['Leads'] ?? '';
    await setEscalation(harness, 1, leads);
    const modcalls = harness.channel('modcalls');
    expect(await harness.deliver(SAMPLE_DELIVERIES.modcall)).toBe(204);
    const [card] = await harness.discord.waitForMessages(modcalls, 1, 10_000);
    loseAnswers(harness, modcalls);
    await answerLate(harness, 'modcall escalation not posted; this card backs off, the others go on');
    const [, reply] = await harness.discord.waitForMessages(modcalls, 2, 10_000);
    expect(reply?.content).toContain(`<@&${leads}> Modcall from`);
    // A member quotes it meanwhile, replying to the card: not the bot's reply.
    harness.discord.postMessageAs(
      modcalls,
      { userId: harness.discord.users.member.id },
      { content: reply?.content ?? '', message_reference: { message_id: card?.id ?? '' } },
    );

    const cards = new CardDocuments(harness.bot.store.documents);
    await harness.discord.waitFor(
      async () => (await cards.modcall(harness.guild.id, card?.id ?? ''))?.escalatedAt != null,
      15_000,
      'the escalation noted',
    );
    const fromBot = harness.discord
      .messages(modcalls)
      .filter((message) => message.api.author.id === harness.discord.botUserId);
    expect(fromBot.map((message) => message.id)).toEqual([card?.id, reply?.id]);
  }, 40_000);

  it("posts a session thread's report once, among 120 messages members wrote meanwhile", async () => {
    h = await start({
      botPermissions: DEFAULT_BOT_PERMISSIONS,
      // A failed post is tried again 2 s later: after Discord forgot the nonce of the message it made meanwhile.
      threadTimings: { minUpdateGapMs: 50, checkEveryMs: 200, retryAfterMs: 2_000 },
    });
    const harness = h;
    await runFeedCommand(harness, 'threads', [
      commandOption.string('event', 'session'),
      commandOption.boolean('on', true),
    ]);
    expect(await harness.deliver(sessionStarted(Date.now() - 60_000))).toBe(204);
    const [card] = await harness.discord.waitForMessages(harness.channel('sessions'), 1);
    const threadId = card?.id ?? '';
    await threadShowing(harness, threadId, (messages) => messages.length === 1, 'the log');

    loseAnswers(harness, threadId);
    expect(await harness.deliver(sessionEnded(Date.now()))).toBe(204);
    await harness.discord.waitForRequest(
      (request) => request.method === 'POST' && request.path === `/channels/${threadId}/messages`,
      10_000,
    );
    // The thread is busy: the report lands after 120 messages of its members.
    for (let n = 0; n < 120; n += 1) {
      harness.discord.postMessageAs(threadId, { userId: harness.discord.users.member.id }, { content: `gg ${n}` });
    }
    await answerLate(harness, 'session threads not updated; tried again later');
    const isReport = (title: string | undefined) => title?.startsWith('After-action report') === true;
    await threadShowing(
      harness,
      threadId,
      (messages) => messages.some((message) => isReport(message.embeds[0]?.title)),
      'the report made',
    );
    const threads = new ThreadDocuments(harness.bot.store.documents);
    const noted = await harness.discord.waitFor(
      async () => (await threads.followed(harness.guild.id)).threads[0]?.parts['report'],
      20_000,
      "the report's message noted",
    );
    const reports = harness.discord.messages(threadId).filter((message) => isReport(message.embeds[0]?.title));
    expect(reports.map((message) => message.id)).toEqual([noted]);
    expect(reports[0]?.api.author.id).toBe(harness.discord.botUserId);
  }, 60_000);
});
