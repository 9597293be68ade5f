import type { FeatureDefinition } from '../feature.js';
import { leaveInteractions } from './commands/index.js';
import { createLeaveFeature, type LeaveListeners } from './feature.js';
import { leaveModule } from './store/leave-module.js';

/** What leave needs of the others: who hears that someone went on leave or came back (the duty board, coverage). */
export interface LeaveNeeds {
  listeners: LeaveListeners;
}

/** Leave of absence and reduced activity, as the features' list takes them: /leave, its card's buttons, its tables. */
export const leaveDefinition: FeatureDefinition<ReturnType<typeof createLeaveFeature>, LeaveNeeds> = {
  interactions: leaveInteractions,
  storeModule: leaveModule,
  create: (parts, { listeners }) => createLeaveFeature(parts, listeners),
};
