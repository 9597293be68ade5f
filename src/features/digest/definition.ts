import type { FeatureDefinition } from '../feature.js';
import type { ChartDrawer } from '../record/index.js';
import { digestInteractions } from './commands/index.js';
import { createDigestFeature, type DigestListeners, type DigestTimings } from './feature.js';
import { digestModule } from './store/digest-module.js';

/** What the digest needs of the others: the record's chart process (one for the bot), who hears of a refusal. */
export interface DigestNeeds {
  charts: ChartDrawer;
  timings: DigestTimings | undefined;
  listeners: DigestListeners;
}

/** The weekly digest and quotas, as the features' list takes them: /quota, /digest, and their tables. */
export const digestDefinition: FeatureDefinition<ReturnType<typeof createDigestFeature>, DigestNeeds> = {
  interactions: digestInteractions,
  storeModule: digestModule,
  create: (parts, { charts, timings, listeners }) => createDigestFeature(parts, charts, timings, listeners),
};
