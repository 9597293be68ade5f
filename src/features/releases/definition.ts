import type { FeatureDefinition } from '../feature.js';
import { releasesInteractions } from './commands/index.js';
import { createReleasesFeature, type ReleasesOptions } from './feature.js';

/** The developer API, as the features' list takes it: /app, its buttons and dialogs, and /store. */
export const releasesDefinition: FeatureDefinition<ReturnType<typeof createReleasesFeature>, ReleasesOptions> = {
  interactions: releasesInteractions,
  create: (parts, options) => createReleasesFeature(parts, options),
};
