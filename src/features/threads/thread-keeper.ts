import type { Clock } from '../../base/clock.js';
import { CoalescedRuns } from '../../base/coalesced-runs.js';
import type { Logger } from '../../base/logger.js';
import { Repeating } from '../../base/repeating.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown, type EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { Poster } from '../../discord/posting/poster.js';
import { isRefusedByDiscord } from '../../discord/posting/send-failure.js';
import type { ThreadStarter } from '../../discord/posting/start-thread.js';
import type { Job } from '../feature.js';
import type { SessionRecord } from '../record/index.js';
import { partsWithReportLast } from './report-last.js';
import { LOG_LINES_PER_MESSAGE, LOG_MESSAGES_AT_MOST, renderSessionLog, type ThreadPart } from './session-log.js';
import { renderSessionReport } from './session-report.js';
import { ShownParts } from './shown-parts.js';
import { dueOf, type SessionCardPosted, type SessionThread, type ThreadDocuments } from './thread-documents.js';

/** Discord lets a bot edit about 5 messages per 5 s in a channel: one update of a guild's threads per 1.2 s. */
const MIN_UPDATE_GAP_MS = 1_200;
/** After a failure (Discord down, the store failing): when the guild's threads are tried again. */
const RETRY_AFTER_MS = 30_000;
/** How often the threads due (to be started, or let go) are looked for, by index. */
const CHECK_EVERY_MS = 30_000;
/** Guilds started at once: every guild with a thread followed (a bounded set: sessions running now). */
const GUILDS_AT_START = 1_000;
/** Of each of cases, modcalls and shifts, what the log reads at most: one more than it shows. */
const READ_AT_MOST = LOG_LINES_PER_MESSAGE * LOG_MESSAGES_AT_MOST + 1;

export interface ThreadKeeperDeps extends EarlierPostDeps {
  threads: ThreadDocuments;
  record: SessionRecord;
  poster: Poster;
  startThread: ThreadStarter;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  minUpdateGapMs?: number | undefined;
  retryAfterMs?: number | undefined;
  checkEveryMs?: number | undefined;
  /** Told each time a guild's update failed and the guild backed off (the metrics). */
  onBackoff?: (() => void) | undefined;
}

/**
 * Keeps each followed session's thread (/feed threads): starts it from the session's card, keeps its log (every
 * case, modcall and shift change of the session, drawn from the community record) and, once the session ended,
 * its after-action report, then lets it go an hour later. Told of the guilds whose record changed; a guild's threads
 * are brought up to date one run at a time, changes coalesced (the board's way). A guild whose update fails backs
 * off (its retry stored in its document, so the due read passes over it) while the other guilds go on. Each message
 * of the thread is posted once: under a nonce of its session and part, written down (with when) before the send; a
 * send later than Discord keeps nonces searches the thread for the post an earlier send made, whose answer was lost
 * (post-once.ts); after that it is only edited, which is the same whether it happens once or twice.
 */
export class ThreadKeeper implements Job {
  private readonly runs: CoalescedRuns;
  private readonly repeating: Repeating;
  private readonly shown = new ShownParts();
  /**
   * The guilds with a thread followed, as far as this process knows (its own cards, the documents due, what it
   * read at start): the record changes of every other guild are not looked at. A guild leaves it once it follows
   * no thread, so it holds no more than the guilds with a session thread now.
   */
  private readonly following = new Set<string>();
  private started = false;

  constructor(private readonly deps: ThreadKeeperDeps) {
    this.runs = new CoalescedRuns({
      timers: deps.timers,
      clock: deps.clock,
      run: (guildId) => this.update(guildId),
      onError: (guildId, error, { failures, retryAt }) => this.backOff(guildId, error, failures, retryAt),
      minGapMs: deps.minUpdateGapMs ?? MIN_UPDATE_GAP_MS,
      retryAfterMs: deps.retryAfterMs ?? RETRY_AFTER_MS,
    });
    this.repeating = new Repeating(
      deps.timers,
      deps.checkEveryMs ?? CHECK_EVERY_MS,
      () => this.checkDue(),
      (error) => deps.logger.warn({ err: toLoggableError(error) }, 'session threads due could not be read'),
    );
  }

  async start(): Promise<void> {
    this.started = true;
    this.runs.start();
    this.repeating.start();
    // What changed while the bot was down (or while another process held the gateway) is shown at once.
    const guilds = await this.deps.threads.dueGuilds(Number.MAX_SAFE_INTEGER, GUILDS_AT_START).catch((error) => {
      this.deps.logger.warn({ err: toLoggableError(error) }, 'session threads could not be listed');
      return [];
    });
    for (const guildId of guilds) this.follow(guildId);
  }

  async stop(): Promise<void> {
    this.started = false;
    await this.repeating.stop();
    await this.runs.stop();
  }

  /** The guilds' record changed: their threads are brought up to date soon (where this process keeps them). */
  recordChanged(guildIds: readonly string[]): void {
    if (!this.started) return;
    for (const guildId of guildIds) if (this.following.has(guildId)) this.runs.changed(guildId);
  }

  /**
   * A session's card was posted (by a lane of any process): its thread is followed if the guild wants threads, and
   * started soon by whichever process keeps them (this one at once; another at its next check).
   */
  async cardPosted(card: SessionCardPosted): Promise<boolean> {
    const added = await this.deps.threads.follow(card);
    if (added && this.started) this.follow(card.guildId);
    return added;
  }

  /** The bot left the guild: nothing of it is kept in memory (its document goes with the store's forgetting). */
  forget(guildId: string): void {
    this.following.delete(guildId);
    this.runs.forget(guildId);
    this.shown.forgetGuild(guildId);
  }

  /** Resolves when no update is under way (tests). */
  idle(): Promise<void> {
    return this.runs.idle();
  }

  /** Looks for the threads due now (tests call it; the timer does every 30 s). */
  async checkDue(): Promise<void> {
    for (const guildId of await this.deps.threads.dueGuilds(this.deps.clock(), 100)) this.follow(guildId);
  }

  /** The guild follows a thread: its record changes are looked at, and its threads brought up to date soon. */
  private follow(guildId: string): void {
    this.following.add(guildId);
    this.runs.changed(guildId);
  }

  private async update(guildId: string): Promise<boolean> {
    const { threads: followed, retryAt } = await this.deps.threads.followed(guildId);
    if (followed.length === 0) {
      this.forget(guildId);
      return false;
    }
    let sent = false;
    let failed: { error: unknown } | undefined;
    // Each thread on its own: one that fails (Discord failing, its facts unreadable) does not stop the others.
    for (const thread of followed) {
      try {
        sent = (await this.keep(guildId, thread)) || sent;
      } catch (error) {
        failed ??= { error };
      }
    }
    if (failed) throw failed.error;
    // Backing off before, it went through now: due again as its threads say.
    if (retryAt !== undefined) await this.deps.threads.backOff(guildId, undefined);
    return sent;
  }

  /**
   * The guild's update failed: it is run again at `retryAt` (the runs' backoff), and its document says so, so the
   * due read passes over it meanwhile (here, after a restart, and in a process that takes the gateway over).
   */
  private backOff(guildId: string, error: unknown, failures: number, retryAt: number): void {
    this.deps.logger.warn(
      { guildId, failures, retryAt: new Date(retryAt).toISOString(), err: toLoggableError(error) },
      'session threads not updated; tried again later (this guild backs off, the others go on)',
    );
    this.deps.onBackoff?.();
    this.deps.threads
      .backOff(guildId, retryAt)
      .catch((stored: unknown) =>
        this.deps.logger.warn(
          { guildId, err: toLoggableError(stored) },
          "a guild's session threads' backoff could not be stored",
        ),
      );
  }

  /** Brings one thread up to date; lets it go when it is done, or when Discord will not have it. True when sent. */
  private async keep(guildId: string, followed: SessionThread): Promise<boolean> {
    const { record, clock } = this.deps;
    let thread = followed;
    try {
      if (!thread.started) {
        await this.deps.startThread(thread.channelId, thread.messageId, `Session: ${thread.name}`);
        thread = await this.save(guildId, { ...thread, started: true });
      }
      const now = clock();
      const facts = await record.sessionFacts(guildId, thread.server, thread.sessionId, now, READ_AT_MOST);
      let sent = false;
      if (facts) {
        const { endedAt } = facts.session;
        if (endedAt !== thread.endedAt) thread = await this.save(guildId, { ...thread, endedAt });
        const parts = renderSessionLog(facts);
        if (endedAt !== null)
          parts.push({
            part: 'report',
            embed: renderSessionReport({ ...facts, session: { ...facts.session, endedAt } }),
          });
        const reportLast = partsWithReportLast(thread.parts, parts);
        if (reportLast) thread = await this.save(guildId, { ...thread, parts: reportLast });
        for (const part of parts) {
          const shown = await this.show(guildId, thread, part);
          thread = shown.thread;
          sent = shown.sent || sent;
        }
      }
      if (now >= dueOf(thread)) await this.letGo(guildId, thread, 'done');
      return sent;
    } catch (error) {
      if (!isRefusedByDiscord(error)) throw error;
      // The thread was deleted, the permission taken away, the card deleted before its thread was started.
      this.deps.logger.warn(
        { guildId, channelId: thread.channelId, threadId: thread.messageId, err: toLoggableError(error) },
        'a session thread was refused by Discord: it is no longer kept',
      );
      await this.letGo(guildId, thread, 'refused');
      return false;
    }
  }

  /** Edits the part's message, or posts it where it has none (any more). */
  private async show(
    guildId: string,
    thread: SessionThread,
    { part, embed }: ThreadPart,
  ): Promise<{ thread: SessionThread; sent: boolean }> {
    const threadId = thread.messageId;
    const content = JSON.stringify(embed);
    const shownAs = { server: thread.server, sessionId: thread.sessionId, part };
    const body = { embeds: [embed] };
    const messageId = thread.parts[part];
    if (messageId !== undefined) {
      if (this.shown.shows(guildId, shownAs, content)) return { thread, sent: false };
      if ((await this.deps.poster.edit(threadId, messageId, body)) === 'edited') {
        this.shown.remember(guildId, shownAs, content);
        return { thread, sent: true };
      }
    }
    // Written down before the send, with when: a send whose answer is lost is sent again under the same nonce, or,
    // later than Discord keeps nonces, searched for (by its title and footer), not made again.
    let current = thread;
    let since = current.asking?.part === part ? current.asking.since : undefined;
    if (since === undefined) {
      since = this.deps.clock();
      current = await this.save(guildId, { ...current, asking: { part, since } });
    }
    const nonce = makeCardNonce([
      'session-thread',
      guildId,
      thread.server,
      String(thread.sessionId),
      part,
      // A part posted anew: the report again below a longer log has a thread of more parts than its first post.
      messageId ?? `new-${Object.keys(thread.parts).length}`,
    ]);
    const { messageId: posted, found } = await postWrittenDown(this.deps, threadId, body, { nonce, writtenAt: since });
    // It shows what the earlier send drew.
    if (found) await this.deps.poster.edit(threadId, posted, body);
    const next: SessionThread = { ...current, parts: { ...current.parts, [part]: posted } };
    delete next.asking;
    current = await this.save(guildId, next);
    this.shown.remember(guildId, shownAs, content);
    return { thread: current, sent: true };
  }

  private async save(guildId: string, thread: SessionThread): Promise<SessionThread> {
    await this.deps.threads.saveThread(guildId, thread, thread);
    return thread;
  }

  private async letGo(guildId: string, thread: SessionThread, why: 'done' | 'refused'): Promise<void> {
    await this.deps.threads.saveThread(guildId, thread, undefined);
    this.shown.forgetSession(guildId, thread);
    if (why === 'done') this.deps.logger.info({ guildId, threadId: thread.messageId }, 'session thread finished');
  }
}
