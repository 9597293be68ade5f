import { Routes, ThreadAutoArchiveDuration, type Client } from 'discord.js';

import { requestDiscord } from './classify-discord-error.js';
import { SendError } from './send-failure.js';

/** Discord's answer when a thread was started from the message already. */
const THREAD_ALREADY_CREATED = 160004;

/** Discord's limit on a thread's name. */
const THREAD_NAME_LENGTH = 100;

/**
 * Starts a public thread from a message and resolves with its id, which Discord makes the message's own: so a
 * thread asked for twice (a retry after a lost answer, another process) is the same thread, and the second ask,
 * which Discord refuses with 160004, resolves with it too. Any other failure rejects with a classified `SendError`.
 */
export type ThreadStarter = (channelId: string, messageId: string, name: string) => Promise<string>;

export function createThreadStarter(client: Client, token?: string): ThreadStarter {
  return async (channelId, messageId, name) => {
    try {
      await requestDiscord(
        client,
        token,
        () =>
          client.rest.post(Routes.threads(channelId, messageId), {
            body: {
              name: name.slice(0, THREAD_NAME_LENGTH),
              // Longer than a session's thread is followed (48 h after its card at most): Discord refuses an edit in
              // an archived thread (50083), and the log and report are edited while followed, not re-posted.
              auto_archive_duration: ThreadAutoArchiveDuration.ThreeDays,
            },
          }),
        channelId,
      );
    } catch (error) {
      const failure = error instanceof SendError ? error.failure : undefined;
      if (failure?.kind !== 'rejected' || failure.code !== THREAD_ALREADY_CREATED) throw error;
    }
    return messageId;
  };
}
