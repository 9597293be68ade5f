import type { BenchGroup } from './group.js';
import { EVIDENCE_FIGURES, measureEvidence } from './oversight-evidence.js';
import { measureGuardCost } from './oversight-guard.js';
import { measureReplayLiveDelay, REPLAY_FIGURES } from './oversight-replay.js';

/**
 * `npm run bench -- oversight`: what issue 46's features cost, each part in a file of its own (oversight-*.ts): the
 * conduct guard's share of the record writer's time; /case evidence's p99 in a guild of 1,000,000 cases on both
 * engines; how much later live events are posted while /feed replay posts 10,000 events into one channel.
 */
export const oversightGroup: BenchGroup = {
  name: 'oversight',
  figures: ['oversight.guard_cost_ratio', ...EVIDENCE_FIGURES, ...REPLAY_FIGURES],
  async run(figures) {
    await measureGuardCost(figures);
    await measureEvidence(figures);
    await measureReplayLiveDelay(figures);
  },
};
