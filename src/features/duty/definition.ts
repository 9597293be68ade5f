import type { FeatureDefinition } from '../feature.js';
import { dutyInteractions } from './commands/index.js';
import { createDutyFeature, type DutyListeners, type DutyTimings } from './feature.js';
import { dutyModule } from './store/duty-module.js';

/** What live duty needs of the others: who hears of a coverage shortfall and of an on-duty role it may not give. */
export interface DutyNeeds {
  timings: DutyTimings | undefined;
  listeners: DutyListeners;
}

/** Live duty, as the features' list takes it: /duty, and its tables. */
export const dutyDefinition: FeatureDefinition<ReturnType<typeof createDutyFeature>, DutyNeeds> = {
  interactions: dutyInteractions,
  storeModule: dutyModule,
  create: (parts, { timings, listeners }) => createDutyFeature(parts, timings, listeners),
};
