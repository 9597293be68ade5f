import type { BenchGroup } from './group.js';
import { measureReplayLiveDelay, REPLAY_FIGURES } from './oversight-replay.js';

/**
 * What the oversight features cost (issue 46): each part in a file of its own. Replay: how much later live events
 * are posted while /feed replay posts 10,000 events into one channel (oversight-replay.ts).
 */
export const oversightGroup: BenchGroup = {
  name: 'oversight',
  figures: [...REPLAY_FIGURES],
  async run(figures) {
    await measureReplayLiveDelay(figures);
  },
};
