import { createThreadStarter } from '../../discord/posting/start-thread.js';
import type { BotParts, Feature } from '../feature.js';
import { recordOf } from '../record/index.js';
import { ThreadDocuments, type SessionCardPosted } from './thread-documents.js';
import { ThreadKeeper } from './thread-keeper.js';

/** What /feed threads uses. */
export interface ThreadsDeps {
  sessionThreads: ThreadDocuments;
  /**
   * Follows the sessions running now whose card is known (threads were just turned on: their cards came before),
   * so they get a thread too; resolves with how many were not followed already.
   */
  threadRunningSessions(guildId: string): Promise<number>;
}

/** What the session threads ask of other features (wired in src/features/index.ts). */
export interface ThreadSources {
  /** Where a session's card is, if one was posted and is still followed. */
  sessionCardOf(
    guildId: string,
    server: string,
    sessionId: number,
  ): Promise<{ channelId: string; messageId: string; postedAt: number } | undefined>;
}

/** The keeper's timings: tests shorten them. */
export interface ThreadTimings {
  minUpdateGapMs?: number;
  checkEveryMs?: number;
  retryAfterMs?: number;
}

/** What the other features tell the session threads (wired in src/features/index.ts). */
export interface SessionThreadsFeature extends Feature<ThreadsDeps> {
  /** A session's card was posted: its thread is followed where the guild wants threads. */
  cardPosted(card: SessionCardPosted): Promise<void>;
  /** The record of these guilds changed (merged deliveries, a modcall claimed): their threads follow. */
  recordChanged(guildIds: readonly string[]): void;
}

/**
 * Session threads (/feed threads event:session): a thread opened from each session's card, its log of what happened
 * on the game server while the session ran, and its after-action report when it ended.
 */
export function createThreadsFeature(
  parts: BotParts,
  sources: ThreadSources,
  timings: ThreadTimings = {},
): SessionThreadsFeature {
  const sessionThreads = new ThreadDocuments(parts.store.documents);
  const record = recordOf(parts.store);
  const keeper = new ThreadKeeper({
    threads: sessionThreads,
    record,
    poster: parts.poster,
    startThread: createThreadStarter(parts.discord, parts.config.DISCORD_TOKEN),
    findPosted: parts.findPosted,
    nonceWindowMs: parts.nonceWindowMs,
    clock: parts.clock,
    timers: parts.timers,
    logger: parts.logger,
    minUpdateGapMs: timings.minUpdateGapMs,
    checkEveryMs: timings.checkEveryMs,
    retryAfterMs: timings.retryAfterMs,
    onBackoff: () => parts.metrics.guildBackoff('session_threads'),
  });
  const threadRunningSessions = async (guildId: string): Promise<number> => {
    let followed = 0;
    for (const session of await record.runningSessions(guildId)) {
      const { server, sessionId } = session;
      const card = await sources.sessionCardOf(guildId, server, sessionId);
      if (!card) continue;
      const name = session.name ?? `session ${sessionId}`;
      if (await keeper.cardPosted({ guildId, server, sessionId, name, ...card, at: card.postedAt })) followed += 1;
    }
    return followed;
  };
  return {
    deps: { sessionThreads, threadRunningSessions },
    jobs: [keeper],
    cardPosted: async (card) => {
      await keeper.cardPosted(card);
    },
    recordChanged: (guildIds) => keeper.recordChanged(guildIds),
    onGuildRemoved: (guildId) => {
      keeper.forget(guildId);
      return Promise.resolve();
    },
  };
}
