import type { AuditEntry, AuditResult } from './audit-log.js';

/** An `audit` row as both engines return it (PostgreSQL's BIGINT `at` may come back as a string). */
export interface AuditRow {
  guild_id: string;
  user_id: string;
  action: string;
  result: AuditResult;
  detail: string | null;
  at: string | number;
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  return {
    guildId: row.guild_id,
    userId: row.user_id,
    action: row.action,
    result: row.result,
    detail: row.detail,
    at: Number(row.at),
  };
}
