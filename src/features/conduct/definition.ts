import type { FeatureDefinition } from '../feature.js';
import { conductInteractions } from './commands/index.js';
import { createConductFeature, type ConductTimings } from './feature.js';
import { conductModule } from './store/conduct-module.js';

/** What the conduct guard needs of the others: only its timings (tests shorten them). */
export interface ConductNeeds {
  timings: ConductTimings | undefined;
}

/** The conduct guard, as the features' list takes it: /conduct, its alerts' buttons, and its tables. */
export const conductDefinition: FeatureDefinition<ReturnType<typeof createConductFeature>, ConductNeeds> = {
  interactions: conductInteractions,
  storeModule: conductModule,
  create: (parts, { timings }) => createConductFeature(parts, timings),
};
