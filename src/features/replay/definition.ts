import type { FeatureDefinition } from '../feature.js';
import { replayInteractions } from './commands/index.js';
import { createReplayFeature } from './feature.js';
import { replayModule } from './store/replay-module.js';

/** Replay, as the features' list takes it: /feed replay's runs and what they posted. */
export const replayDefinition: FeatureDefinition<ReturnType<typeof createReplayFeature>> = {
  interactions: replayInteractions,
  storeModule: replayModule,
  create: (parts) => createReplayFeature(parts),
};
