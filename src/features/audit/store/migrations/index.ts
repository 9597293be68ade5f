import type { MigrationStep } from '../../../../store/migrations/migration-step.js';
import { auditLog } from './0001-audit-log.js';
import { auditKinds } from './0002-audit-kinds.js';

/** The audit log's schema, step by step, in order; a new step goes at the end. */
export const AUDIT_MIGRATIONS: readonly MigrationStep[] = [auditLog, auditKinds];
