/** What other features may use of the releases feature: whether a guild's release polls keep failing. */
export type { PollHealth } from './poll-failures.js';
