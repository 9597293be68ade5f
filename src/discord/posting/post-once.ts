import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { PostFinder, WantedPost } from './find-post.js';
import type { OutgoingMessage, Poster } from './poster.js';

/** Discord documents no length for its nonce check ("a few minutes"): 4 minutes is on the safe side. */
export const DEFAULT_NONCE_WINDOW_MS = 4 * 60_000;

/** What looking for an earlier post needs. */
export interface EarlierPostDeps {
  clock: Clock;
  logger: Logger;
  /**
   * Finds the bot's post in a channel made since a time (its id), for a resend past the nonce window; without it a
   * resend relies on the nonce alone.
   */
  findPosted?: PostFinder | undefined;
  /** How long Discord recognises a nonce (enforce_nonce); a resend later than this looks for the post first. */
  nonceWindowMs?: number | undefined;
}

/**
 * A message written down (its nonce stored) before it is sent, and when: a send whose answer was lost is sent
 * again under the same nonce. `writtenAt` is undefined for one written down by a version that kept no time.
 */
export interface WrittenDown {
  nonce: string;
  writtenAt: number | undefined;
}

/**
 * A message written down longer ago than Discord keeps nonces may have been posted by a send whose answer was
 * lost (a timeout, a crash): the channel's messages since it was written down are looked through first, so it
 * is not posted twice. Within the window the nonce does that, at no cost. Resolves with the post's id, if found.
 */
export async function findEarlierPost(
  deps: EarlierPostDeps,
  channelId: string,
  wanted: WantedPost,
  writtenAt: number | undefined,
): Promise<string | undefined> {
  const window = deps.nonceWindowMs ?? DEFAULT_NONCE_WINDOW_MS;
  if (!deps.findPosted || writtenAt === undefined || deps.clock() - writtenAt < window) return undefined;
  const found = await deps.findPosted(channelId, wanted, writtenAt);
  if (found) deps.logger.info({ channelId, messageId: found }, 'found the post of a resend');
  return found;
}

/**
 * Posts a message written down before (see {@link WrittenDown}) under its nonce, or, sent again later than the
 * nonce window, finds the post an earlier send made (`wanted` says what it shows; the body's embeds by default).
 * `found` tells the caller the message is the earlier post, showing what was sent then (an edit brings it up to
 * date).
 */
export async function postWrittenDown(
  deps: EarlierPostDeps & { poster: Pick<Poster, 'post'> },
  channelId: string,
  body: OutgoingMessage,
  written: WrittenDown,
  wanted: WantedPost = body,
): Promise<{ messageId: string; found: boolean }> {
  const earlier = await findEarlierPost(deps, channelId, wanted, written.writtenAt);
  if (earlier !== undefined) return { messageId: earlier, found: true };
  return { messageId: await deps.poster.post(channelId, body, written.nonce), found: false };
}
