/** What other features and the shared commands may use of replay: /feed replay, and the button that offers it. */
export { replayOffer, startReplay, type FeedReplayDeps } from './commands/feed/replay.js';
export type { ReplayDeps } from './feature.js';
