import { columns, type RowOf } from '../../../store/table-columns.js';
import type { AuditEntry } from './audit-log.js';

/** What an audit entry is read with: {@link toAuditEntry}'s columns. */
export const AUDIT = columns('audit', 'guild_id', 'user_id', 'action', 'result', 'detail', 'at', 'kind', 'subject');

export function toAuditEntry(row: RowOf<typeof AUDIT>): AuditEntry {
  return {
    guildId: row.guild_id,
    userId: row.user_id,
    action: row.action,
    result: row.result,
    detail: row.detail,
    at: row.at,
    ...(row.kind === 'action' ? {} : { kind: row.kind }),
    ...(row.subject === null ? {} : { subject: row.subject }),
  };
}
