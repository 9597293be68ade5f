import type { Store } from '../../store/store.js';
import type { AuditLog } from './store/audit-log.js';
import { auditModule } from './store/audit-module.js';

/** What other features may use of the audit feature. */
export { BOT_USER_ID, type AuditEntry, type AuditKind, type AuditLog, type AuditResult } from './store/audit-log.js';

/**
 * The audit log of `store` (opened with the audit's store module), for a feature that writes a line of what the bot
 * did on its own (a retention sweep, leaving a server): adding is all it may do.
 */
export function auditOf(store: Pick<Store, 'of'>): Pick<AuditLog, 'append'> {
  return store.of(auditModule);
}
