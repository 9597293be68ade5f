import { findEarlierPost as findWrittenDownPost, type EarlierPostDeps } from '../discord/posting/post-once.js';
import type { OutgoingPost } from './outgoing-message.js';

export type { EarlierPostDeps } from '../discord/posting/post-once.js';

/**
 * A lane's message written down longer ago than Discord keeps nonces may have been posted by a send whose answer
 * was lost (a timeout, a crash): the channel is searched for the bot's post of the same embeds first (see
 * post-once.ts). Resolves with the post's id, if found.
 */
export function findEarlierPost(
  deps: EarlierPostDeps,
  channelId: string,
  outgoing: OutgoingPost,
): Promise<string | undefined> {
  return findWrittenDownPost(deps, channelId, outgoing.body, outgoing.writtenAt);
}
