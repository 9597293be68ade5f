import type { FeatureDefinition } from '../feature.js';
import { createThreadsFeature, type ThreadSources, type ThreadTimings } from './feature.js';

/** What the session threads need of the others: a running session's card, where its thread starts. */
export interface ThreadsNeeds {
  sources: ThreadSources;
  timings: ThreadTimings | undefined;
}

/** The session threads, as the features' list takes them: their command is /feed's (shared); no tables. */
export const threadsDefinition: FeatureDefinition<ReturnType<typeof createThreadsFeature>, ThreadsNeeds> = {
  interactions: {},
  create: (parts, { sources, timings }) => createThreadsFeature(parts, sources, timings),
};
