import type { Interactions } from '../../../discord/command.js';
import { replayButton, type FeedReplayDeps } from './feed/replay.js';

/** The replay feature's button (its command is /feed replay, a part of the shared /feed). */
export const replayInteractions: Interactions<FeedReplayDeps> = {
  buttons: [replayButton],
};
