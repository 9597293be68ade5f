/**
 * What other features and the shared commands may use of the releases feature: whether a guild's release polls
 * keep failing, and /status's lines on the developer key and the poller.
 */
export { describeReleaseStatus } from './describe-releases.js';
export type { ReleasesDeps } from './feature.js';
export type { PollHealth } from './poll-failures.js';
