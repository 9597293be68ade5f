import type { OutgoingMessage, Poster } from '../../src/discord/posting/poster.js';

/** A poster that keeps what it was asked to post, as Discord would show it: channel and body. */
export function recordingPoster(): Poster & { posts: Array<{ channelId: string; body: OutgoingMessage }> } {
  const posts: Array<{ channelId: string; body: OutgoingMessage }> = [];
  return {
    posts,
    post: (channelId, body) => {
      posts.push({ channelId, body });
      return Promise.resolve(`message-${posts.length}`);
    },
    edit: () => Promise.resolve('edited'),
  };
}
