import type { FeatureDefinition } from '../feature.js';
import { staffActionsInteractions } from './commands/index.js';
import { createStaffActionsFeature } from './feature.js';
import { staffActionsModule } from './store/staff-actions-module.js';
import type { TimelineSource } from './timeline.js';

/** What the staff actions need of the others: the timelines other features add to a member's history (leave). */
export interface StaffActionsNeeds {
  timeline: readonly TimelineSource[];
}

/** Discipline and promotions, as the features' list takes them: their part of /staff, and their tables. */
export const staffActionsDefinition: FeatureDefinition<
  ReturnType<typeof createStaffActionsFeature>,
  StaffActionsNeeds
> = {
  interactions: staffActionsInteractions,
  storeModule: staffActionsModule,
  create: (parts, { timeline }) => createStaffActionsFeature(parts, timeline),
};
