import { PermissionFlagsBits } from 'discord.js';
import { afterEach, describe, expect, it } from 'vitest';

import { commandOption, DEFAULT_BOT_PERMISSIONS, type FakeMessage } from '../../../../fakes/discord/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { LOG_LINES_PER_MESSAGE } from '../../../../src/features/threads/session-log.js';
import { runFeedCommand, startFeedHarness, type FeedHarness } from '../../../e2e/feed-harness.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { clickButton } from '../../../helpers/click-button.js';
import {
  caseCreated,
  modcall,
  postsTo,
  sessionEnded,
  sessionStarted,
  shift,
  threadShowing,
} from './session-threads-fixtures.js';

const THREAD_PERMISSIONS = PermissionFlagsBits.CreatePublicThreads | PermissionFlagsBits.SendMessagesInThreads;

/**
 * Session threads end to end: deliveries through the intake, the session's card, the thread Discord starts from it,
 * the log drawn from the community record as its writer merges, the after-action report, each message once.
 */
describe('session threads', () => {
  let h: FeedHarness | undefined;
  afterEach(async () => {
    await h?.stop();
    h = undefined;
  });

  const start = (botPermissions = DEFAULT_BOT_PERMISSIONS) =>
    startFeedHarness({ botPermissions, threadTimings: { minUpdateGapMs: 50, checkEveryMs: 200 } });

  const threadsOn = async (harness: FeedHarness, on = true) =>
    (await runFeedCommand(harness, 'threads', [
      commandOption.string('event', 'session'),
      commandOption.boolean('on', on),
    ])) ?? '';

  it('opens a thread from the session card, logs the session in it in order, and posts its report once', async () => {
    h = await start();
    const harness = h;
    expect(await threadsOn(harness)).toBe(
      `Each session's card now opens a thread (in <#${harness.channel('sessions')}>) with the session's log: its ` +
        'cases, modcalls and shift changes as they come; when it ends, the thread gets its after-action report.',
    );

    const moderators = harness.moderatorsRoleId;
    const MIRA = harness.discord.addMember(harness.guild.id, { username: 'mira', roleIds: [moderators] });
    const JONAS = harness.discord.addMember(harness.guild.id, { username: 'jonas', roleIds: [moderators] });
    const base = Date.now() - 40 * 60_000;
    expect(await harness.deliver(shift(1, MIRA, 'Mira', base - 10 * 60_000, null))).toBe(204);
    expect(await harness.deliver(sessionStarted(base, MIRA))).toBe(204);
    const [card] = await harness.discord.waitForMessages(harness.channel('sessions'), 1);
    const threadId = card?.id ?? '';
    // Discord gives a thread started from a message the message's id.
    await harness.discord.waitFor(() => harness.discord.channel(threadId) !== undefined, 15_000, 'the thread');
    // Not archived while it is followed (48 h at most): an edit in an archived thread is refused.
    expect(harness.discord.channel(threadId)).toMatchObject({
      type: 11,
      parent_id: harness.channel('sessions'),
      thread_metadata: { auto_archive_duration: 4320 },
    });
    expect(harness.discord.channel(threadId)?.name).toBe('Session: Evening patrol');

    // Told out of order: the case made before the shift change arrives after it.
    expect(await harness.deliver(shift(2, JONAS, 'Jonas', base + 5 * 60_000, null))).toBe(204);
    expect(await harness.deliver(modcall(base + 10 * 60_000))).toBe(204);
    expect(await harness.deliver(caseCreated(4101, 'ban', base + 2 * 60_000))).toBe(204);
    expect(await harness.deliver(shift(1, MIRA, 'Mira', base - 10 * 60_000, base + 30 * 60_000))).toBe(204);
    const sec = (ms: number) => Math.floor(ms / 1000);
    const logged = await threadShowing(
      harness,
      threadId,
      (messages) => (messages[0]?.embeds[0]?.description ?? '').split('\n').length === 4,
      'four lines in the log',
    );
    expect(logged).toHaveLength(1);
    expect(logged[0]?.embeds[0]?.title).toBe('Session log');
    expect(logged[0]?.embeds[0]?.description?.split('\n')).toEqual([
      `<t:${sec(base + 2 * 60_000)}:T> **Ban** #4101 · Speedy by ${SAMPLE_DELIVERIES['case.created'].data.case.moderator.name}`,
      `<t:${sec(base + 5 * 60_000)}:T> 🟢 <@${JONAS}> on shift`,
      `<t:${sec(base + 10 * 60_000)}:T> 📣 Modcall from Lost\\_Player · not claimed`,
      `<t:${sec(base + 30 * 60_000)}:T> ⚪ <@${MIRA}> off shift`,
    ]);

    // A claim on the modcall's card reaches the log.
    const [callCard] = await harness.discord.waitForMessages(harness.channel('modcalls'), 1);
    await harness.discord.waitFor(
      async () =>
        (await harness.bot.store.of(recordModule).modcallResponse(harness.guild.id, { from: 0, to: Date.now() }))
          .calls === 1,
      10_000,
      'the modcall recorded',
    );
    if (!callCard) throw new Error('no modcall card');
    await clickButton(harness.discord, harness.guild.id, callCard, 'Claim', { userId: JONAS });
    await threadShowing(
      harness,
      threadId,
      (messages) => new RegExp(`claimed by <@${JONAS}> after`).test(messages[0]?.embeds[0]?.description ?? ''),
      'the claim in the log',
    );

    const endedAt = base + 40 * 60_000;
    expect(await harness.deliver(sessionEnded(endedAt))).toBe(204);
    const done = await threadShowing(
      harness,
      threadId,
      (messages) => messages.length === 2,
      'the report after the log',
    );
    const report = done[1]?.embeds[0];
    expect(report?.title).toBe('After-action report: Evening patrol');
    const fields = Object.fromEntries((report?.fields ?? []).map((field) => [field.name, field.value]));
    expect(fields['Modcalls']).toMatch(/^1 of 1 answered · median time to claim \d+/);
    expect({ ...fields, Modcalls: 'checked above' }).toEqual({
      Duration: '40 min',
      'Peak players': '31',
      Joins: '54',
      Cases: '1 ban',
      Modcalls: 'checked above',
      // Mira from the session's start to her shift's end; Jonas from his start to the session's end.
      'Staff on shift': `<@${JONAS}>: 35 min\n<@${MIRA}>: 30 min`,
    });

    // Once each: the log posted once and edited since, the report posted once; a restart posts nothing again.
    expect(postsTo(harness, threadId)).toHaveLength(2);
    await harness.restart();
    await harness.deliver(caseCreated(4102, 'warn', base + 35 * 60_000));
    await threadShowing(
      harness,
      threadId,
      (messages) => messages[1]?.embeds[0]?.fields?.find((field) => field.name === 'Cases')?.value === '1 ban · 1 warn',
      'the late case in the report',
    );
    expect(harness.discord.messages(threadId)).toHaveLength(2);
    expect(postsTo(harness, threadId)).toHaveLength(2);
    const threads = harness.discord.requests.filter((request) => request.path.endsWith('/threads'));
    expect(threads.filter((request) => (request.status ?? 0) < 300)).toHaveLength(1);
  });

  it('gives a session already running when threads are turned on its thread, from the card it has', async () => {
    h = await start();
    const harness = h;
    const base = Date.now() - 20 * 60_000;
    expect(await harness.deliver(sessionStarted(base))).toBe(204);
    const [card] = await harness.discord.waitForMessages(harness.channel('sessions'), 1);
    const threadId = card?.id ?? '';
    // The record knows the session runs once its writer merged the start.
    await harness.discord.waitFor(
      async () => (await harness.bot.store.of(recordModule).runningSessions(harness.guild.id)).length === 1,
      10_000,
      'the session recorded as running',
    );
    expect(harness.discord.channel(threadId)).toBeUndefined();

    expect(await threadsOn(harness)).toContain('The session running now gets one too.');
    await harness.discord.waitFor(() => harness.discord.channel(threadId) !== undefined, 15_000, 'the thread');
    expect(harness.discord.channel(threadId)?.name).toBe('Session: Evening patrol');
    // Its log and, at its end, its report, as for a session whose card came after.
    expect(await harness.deliver(caseCreated(4102, 'warn', base + 60_000))).toBe(204);
    await threadShowing(
      harness,
      threadId,
      (messages) => (messages[0]?.embeds[0]?.description ?? '').includes('4102'),
      'the case in the log',
    );
    // Turned on again while it runs: it has its thread already, and no second one is asked for.
    expect(await threadsOn(harness)).not.toContain('running now');
    expect(await harness.deliver(sessionEnded(base + 15 * 60_000))).toBe(204);
    await threadShowing(
      harness,
      threadId,
      (messages) => messages.some((message) => message.embeds[0]?.title?.startsWith('After-action report') === true),
      'the report',
    );
    expect(harness.discord.requests.filter((request) => request.path.endsWith(`/${threadId}/threads`))).toHaveLength(1);
    expect(harness.discord.violations).toEqual([]);
  });

  it('keeps the report last when cases told after it need another message of the log', async () => {
    h = await start();
    const harness = h;
    expect(await threadsOn(harness)).toContain('opens a thread');
    const base = Date.now() - 60 * 60_000;
    expect(await harness.deliver(sessionStarted(base))).toBe(204);
    const [card] = await harness.discord.waitForMessages(harness.channel('sessions'), 1);
    const threadId = card?.id ?? '';
    expect(await harness.deliver(caseCreated(5000, 'warn', base + 60_000))).toBe(204);
    expect(await harness.deliver(sessionEnded(base + 50 * 60_000))).toBe(204);
    const titles = (messages: FakeMessage[]) => messages.map((message) => message.embeds[0]?.title);
    await threadShowing(
      harness,
      threadId,
      (messages) => titles(messages).join() === 'Session log,After-action report: Evening patrol',
      'the log and the report',
    );

    // The moderators file the session's cases afterwards: 25 more, 26 lines, two messages of log.
    for (let i = 1; i <= LOG_LINES_PER_MESSAGE; i += 1) {
      expect(await harness.deliver(caseCreated(5000 + i, 'kick', base + (1 + i) * 60_000))).toBe(204);
    }
    const done = await threadShowing(
      harness,
      threadId,
      (messages) =>
        messages.at(-1)?.embeds[0]?.fields?.find((field) => field.name === 'Cases')?.value === '25 kicks · 1 warn',
      'the report with every case',
    );
    expect(titles(done)).toEqual(['Session log', 'Session log (2)', 'After-action report: Evening patrol']);
    expect(done[1]?.embeds[0]?.description).toContain('#5025');
    // The report's first message became the log's second; the report was posted once more, below it.
    expect(postsTo(harness, threadId)).toHaveLength(3);
    expect(harness.discord.violations).toEqual([]);
  });

  it('posts the report once when Discord answers its post too late: the bot gave up, the message was made', async () => {
    h = await startFeedHarness({
      botPermissions: DEFAULT_BOT_PERMISSIONS,
      threadTimings: { minUpdateGapMs: 50, checkEveryMs: 200, retryAfterMs: 300 },
      restTimeoutMs: 1_000,
    });
    const harness = h;
    await threadsOn(harness);
    const base = Date.now() - 60_000;
    expect(await harness.deliver(sessionStarted(base))).toBe(204);
    const [card] = await harness.discord.waitForMessages(harness.channel('sessions'), 1);
    const threadId = card?.id ?? '';
    await threadShowing(harness, threadId, (messages) => messages.length === 1, 'the log');

    // The report's post is held past the bot's timeout and its REST layer's three retries, then made.
    const threadPosts = `/channels/${threadId}/messages`;
    harness.discord.hangRequests({
      count: 4,
      forMs: 8_000,
      match: new RegExp(`^${threadPosts}$`),
      afterwards: 'answer',
    });
    expect(await harness.deliver(sessionEnded(Date.now()))).toBe(204);
    await harness.discord.waitFor(
      () => harness.logs.text().includes('session threads not updated; tried again later'),
      15_000,
      'the failed post logged',
    );
    await harness.discord.waitFor(
      () => {
        const posts = harness.discord.requests.filter(
          (request) => request.path === threadPosts && request.method === 'POST',
        );
        return posts.length >= 5 && posts.every((request) => request.status !== undefined);
      },
      15_000,
      'the held posts answered, and the post after them',
    );
    const messages = harness.discord.messages(threadId);
    expect(messages.map((message) => message.embeds[0]?.title)).toEqual([
      'Session log',
      'After-action report: Evening patrol',
    ]);
  });

  it('refuses to turn threads on where the bot could not open them, naming what is missing, and saves nothing', async () => {
    h = await start(DEFAULT_BOT_PERMISSIONS & ~THREAD_PERMISSIONS);
    const harness = h;
    expect(await threadsOn(harness)).toBe(
      `I cannot open session threads in <#${harness.channel('sessions')}>: I am missing Create Public Threads, ` +
        'Send Messages in Threads there. Grant them and run the command again; nothing was saved.',
    );
    expect(await harness.deliver(sessionStarted(Date.now()))).toBe(204);
    const [card] = await harness.discord.waitForMessages(harness.channel('sessions'), 1);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(harness.discord.channel(card?.id ?? '')).toBeUndefined();
    expect(harness.discord.requests.filter((request) => request.path.endsWith('/threads'))).toHaveLength(0);
  });
});
