import type { Clock } from '../base/clock.js';
import type { Logger } from '../base/logger.js';
import type { FeedMessageBody } from '../discord/posting/send-failure.js';
import type { OutgoingPost } from './outgoing-message.js';

/** Discord documents no length for its nonce check ("a few minutes"): 4 minutes is on the safe side. */
export const DEFAULT_NONCE_WINDOW_MS = 4 * 60_000;

/** What looking for an earlier post needs. */
export interface EarlierPostDeps {
  clock: Clock;
  logger: Logger;
  /**
   * Finds a post of this body in the channel made since a time (its id), for a resend past the nonce window;
   * without it a resend relies on the nonce alone.
   */
  findPosted?: (channelId: string, body: FeedMessageBody, since: number) => Promise<string | undefined>;
  /** How long Discord recognises a nonce (enforce_nonce); a resend later than this looks for the post first. */
  nonceWindowMs?: number;
}

/**
 * A message written down longer ago than Discord keeps nonces may have been posted by a send whose answer was
 * lost (a timeout, a crash): the channel's messages since it was written down are looked through first, so it
 * is not posted twice. Within the window the nonce does that, at no cost. Resolves with the post's id, if found.
 */
export async function findEarlierPost(
  deps: EarlierPostDeps,
  channelId: string,
  outgoing: OutgoingPost,
): Promise<string | undefined> {
  const window = deps.nonceWindowMs ?? DEFAULT_NONCE_WINDOW_MS;
  if (!deps.findPosted || deps.clock() - outgoing.writtenAt < window) return undefined;
  const found = await deps.findPosted(channelId, outgoing.body, outgoing.writtenAt);
  if (found) deps.logger.info({ channelId, messageId: found }, 'found the post of a resend');
  return found;
}
