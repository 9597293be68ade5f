import type { FeatureDefinition } from '../feature.js';
import { createRoutingFeature } from './feature.js';

/** The routing rules, as the features' list takes them: their commands are /feed's (shared); no tables. */
export const routingDefinition: FeatureDefinition<ReturnType<typeof createRoutingFeature>> = {
  interactions: {},
  create: (parts) => createRoutingFeature(parts),
};
