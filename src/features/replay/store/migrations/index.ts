import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { replayRuns } from './0001-replay-runs.js';

/** The replay feature's schema, step by step, in order; a new step goes at the end. */
export const REPLAY_MIGRATIONS: readonly MigrationStep[] = [replayRuns];
