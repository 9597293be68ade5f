import type { BotParts, Feature } from '../feature.js';
import { toAuditEntry } from './audit-entry.js';
import type { AuditLog } from './store/audit-log.js';
import { auditModule } from './store/audit-module.js';

/** Admin actions are kept this long (docs/operations.md, "Audit"). */
export const AUDIT_KEPT_MS = 90 * 24 * 60 * 60 * 1000;

/** What /audit shows. */
export interface AuditDeps {
  audit: Pick<AuditLog, 'latest'>;
}

/** Every admin action, whoever did it and how it ended, kept 90 days and shown by /audit. */
export function createAuditFeature(parts: Pick<BotParts, 'store' | 'clock'>): Feature<AuditDeps> {
  const audit = parts.store.of(auditModule);
  return {
    deps: { audit },
    onAction: (action) => audit.append(toAuditEntry(action, parts.clock())),
    sweep: (now) => audit.sweep(now - AUDIT_KEPT_MS),
  };
}
