import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { quotasAndDigests } from './0001-quotas-and-digests.js';
import { backoff } from './0002-backoff.js';

/** The quotas' and the weekly digest's schema, step by step, in order; a new step goes at the end. */
export const DIGEST_MIGRATIONS: readonly MigrationStep[] = [quotasAndDigests, backoff];
