import type { StoreModule } from '../../../store/store-module.js';
import type { AuditLog } from './audit-log.js';
import { AUDIT_PERSON_ROWS } from './audit-person-rows.js';
import { AUDIT_MIGRATIONS } from './migrations/index.js';
import { SqlAuditLog } from './sql-audit-log.js';

/**
 * The audit log's tables in the store. A guild's entries outlive forgetting it (they are kept 90 days for its
 * admins to read if the bot is added again, and dropped by the feature's sweep), so forgetting deletes none and
 * they keep no guild known.
 */
export const auditModule: StoreModule<AuditLog> = {
  name: 'audit',
  migrations: AUDIT_MIGRATIONS,
  forgetGuild: [],
  personRows: AUDIT_PERSON_ROWS,
  keptGuilds: [],
  copied: 'audit entries',
  async copy(from, to) {
    // A second run must not double the log: only a store without one gets it.
    if ((await to.listAll()).length > 0) return 0;
    const entries = await from.listAll();
    for (const entry of entries) await to.append(entry);
    return entries.length;
  },
  open: ({ dialect, runner }) => new SqlAuditLog(dialect, runner),
};
