/** Moved to src/simulate/ with the story generator that uses it; re-exported for tests. */
export * from '../../../src/simulate/story-cast.js';
