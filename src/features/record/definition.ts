import type { FeatureDefinition } from '../feature.js';
import { recordInteractions } from './commands/index.js';
import { createRecordFeature, type RecordListeners, type RecordTimings } from './feature.js';
import { recordModule } from './store/record-module.js';

/** What the community record needs of the others: who hears of the shifts, sessions and guilds it merged. */
export interface RecordNeeds {
  timings: RecordTimings | undefined;
  listeners: RecordListeners;
}

/** The community record, as the features' list takes it: /record, /case, /staff, /leaderboard, /export; its tables. */
export const recordDefinition: FeatureDefinition<ReturnType<typeof createRecordFeature>, RecordNeeds> = {
  interactions: recordInteractions,
  storeModule: recordModule,
  create: (parts, { timings, listeners }) => createRecordFeature(parts, timings, listeners),
};
