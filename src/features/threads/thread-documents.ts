import { z } from 'zod';

import type { DocumentStore } from '../../store/documents.js';

/**
 * How long a session's thread is kept up to date after the session ended: a case or a claim told late still
 * reaches its log and report.
 */
export const FOLLOWED_AFTER_END_MS = 60 * 60 * 1000;
/** A session whose end never came is followed this long after its card was posted, then let go. */
export const FOLLOWED_AT_MOST_MS = 48 * 60 * 60 * 1000;

/** One session's thread, from its card's posting until it is let go. */
const SessionThreadSchema = z.object({
  server: z.string(),
  sessionId: z.number().int(),
  /** The session's name, the thread's name. */
  name: z.string(),
  /** The card's channel. */
  channelId: z.string(),
  /** The card's message, which is the thread's id once it is started (Discord gives it the message's). */
  messageId: z.string(),
  cardPostedAt: z.number(),
  started: z.boolean(),
  /** What the bot posted in the thread, by part (`log:0`, `log:1`, …, `report`): the message of each. */
  parts: z.record(z.string(), z.string()),
  /** A part being posted since this time, its message not yet written down: searched for before posting again. */
  asking: z.object({ part: z.string(), since: z.number() }).optional(),
  /** When the session ended, once the record says so. */
  endedAt: z.number().nullable(),
});
export type SessionThread = z.infer<typeof SessionThreadSchema>;

/**
 * A guild's choice (/feed threads) and the threads it follows now; `retryAt` while its last update failed: the
 * keeper's due read passes over it until then.
 */
const GuildThreadsSchema = z.object({
  on: z.boolean(),
  threads: z.array(SessionThreadSchema),
  retryAt: z.number().optional(),
});
type GuildThreads = z.infer<typeof GuildThreadsSchema>;

/** The threads a guild follows now, and when its update is retried if the last one failed. */
export interface FollowedThreads {
  threads: SessionThread[];
  retryAt: number | undefined;
}

/** A session card just posted, whose thread may be wanted. */
export interface SessionCardPosted {
  guildId: string;
  server: string;
  sessionId: number;
  name: string;
  channelId: string;
  messageId: string;
  at: number;
}

const KIND = 'session_threads';

/**
 * The session threads' records: one store document per guild (keyed by the guild, so forgetting a guild deletes
 * it), holding whether the guild wants threads and the threads followed now. A thread is let go (dropped from the
 * document) once it is done, so what is kept per guild is bounded by its sessions running at once. The document's
 * time is when its threads next need looking at without a change of the record (a thread to start, one to let
 * go), and no sooner than its retry while its last update failed: the keeper reads only the guilds due, so guilds
 * whose updates keep failing do not fill its read.
 */
export class ThreadDocuments {
  constructor(private readonly documents: DocumentStore) {}

  async isOn(guildId: string): Promise<boolean> {
    return (await this.read(guildId)).on;
  }

  /** Turns threads on or off for the guild's sessions to come; threads followed now are finished either way. */
  async setOn(guildId: string, on: boolean): Promise<void> {
    await this.change(guildId, (current) => ({ ...current, on }));
  }

  /** The threads the guild follows now, and its retry while it backs off. */
  async followed(guildId: string): Promise<FollowedThreads> {
    const { threads, retryAt } = await this.read(guildId);
    return { threads, retryAt };
  }

  /**
   * The guild's update failed: it is due no sooner than `retryAt` (undefined: it went through, due as its threads
   * say again).
   */
  async backOff(guildId: string, retryAt: number | undefined): Promise<void> {
    await this.change(guildId, (current) => {
      const next = { ...current };
      delete next.retryAt;
      return retryAt === undefined ? next : { ...next, retryAt };
    });
  }

  /** A session's card was posted: its thread is followed if the guild wants threads (once, whatever repeats). */
  async follow(card: SessionCardPosted): Promise<boolean> {
    let added = false;
    await this.change(card.guildId, (current) => {
      added = false;
      const known = current.threads.some((thread) => sameSession(thread, card));
      if (!current.on || known) return current;
      added = true;
      const { server, sessionId, name, channelId, messageId, at } = card;
      const thread = { server, sessionId, name, channelId, messageId, cardPostedAt: at, started: false, parts: {} };
      return { ...current, threads: [...current.threads, { ...thread, endedAt: null }] };
    });
    return added;
  }

  /** Stores what changed of one thread (undefined: it is let go). */
  async saveThread(
    guildId: string,
    session: Pick<SessionThread, 'server' | 'sessionId'>,
    thread: SessionThread | undefined,
  ): Promise<void> {
    await this.change(guildId, (current) => ({
      ...current,
      threads: current.threads.flatMap((held) =>
        sameSession(held, session) ? (thread === undefined ? [] : [thread]) : [held],
      ),
    }));
  }

  /** Guilds with a thread due to be looked at by `now`, at most `limit`. */
  async dueGuilds(now: number, limit: number): Promise<string[]> {
    return (await this.documents.listDue(KIND, now, limit)).map((stored) => stored.key);
  }

  private async read(guildId: string): Promise<GuildThreads> {
    const stored = await this.documents.get(KIND, guildId);
    return stored === undefined || stored === null ? { on: false, threads: [] } : GuildThreadsSchema.parse(stored);
  }

  private async change(guildId: string, change: (current: GuildThreads) => GuildThreads): Promise<void> {
    await this.documents.update(
      KIND,
      guildId,
      (stored) => {
        const current =
          stored === undefined || stored === null ? { on: false, threads: [] } : GuildThreadsSchema.parse(stored);
        const next = change(current);
        // Nothing to keep: off, and no thread followed.
        return !next.on && next.threads.length === 0 ? undefined : next;
      },
      (value) => {
        const { threads, retryAt } = GuildThreadsSchema.parse(value);
        const due = nextDueOf(threads);
        // Backing off: due at its retry, not before (nothing due, nothing to retry).
        return due === null ? null : Math.max(due, retryAt ?? due);
      },
    );
  }
}

/** When a thread needs looking at without a change of the record: to be started, or let go. */
export function dueOf(thread: SessionThread): number {
  if (!thread.started) return thread.cardPostedAt;
  if (thread.endedAt !== null) return thread.endedAt + FOLLOWED_AFTER_END_MS;
  return thread.cardPostedAt + FOLLOWED_AT_MOST_MS;
}

function nextDueOf(threads: readonly SessionThread[]): number | null {
  return threads.length === 0 ? null : Math.min(...threads.map(dueOf));
}

function sameSession(a: Pick<SessionThread, 'server' | 'sessionId'>, b: Pick<SessionThread, 'server' | 'sessionId'>) {
  return a.server === b.server && a.sessionId === b.sessionId;
}
