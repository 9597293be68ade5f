import type { CardPoster } from '../../src/apps/card-poster.js';
import type { MessagePayload } from '../../src/embeds/types.js';

/** A card poster that keeps what it was asked to post, as Discord would show it: channel and body. */
export function recordingPoster(): CardPoster & { posts: Array<{ channelId: string; body: MessagePayload }> } {
  const posts: Array<{ channelId: string; body: MessagePayload }> = [];
  return {
    posts,
    post: (channelId, body) => {
      posts.push({ channelId, body });
      return Promise.resolve(`message-${posts.length}`);
    },
    edit: () => Promise.resolve('edited'),
  };
}
