/** Moved to src/simulate/ with the story generator that uses it; re-exported for tests. */
export { createSeededRandom, type SeededRandom } from '../../../src/simulate/seeded-random.js';
