import type pg from 'pg';

import type { AuditEntry, AuditLog } from '../audit-log.js';
import { toAuditEntry, type AuditRow } from '../audit-rows.js';

/** The `audit` table; newest first by its identity column, which follows insertion. */
export class PostgresAudit implements AuditLog {
  constructor(private readonly pool: pg.Pool) {}

  async append(entry: AuditEntry): Promise<void> {
    await this.pool.query(
      'INSERT INTO audit (guild_id, user_id, action, result, detail, at) VALUES ($1, $2, $3, $4, $5, $6)',
      [entry.guildId, entry.userId, entry.action, entry.result, entry.detail, entry.at],
    );
  }

  async latest(guildId: string, limit: number): Promise<AuditEntry[]> {
    const { rows } = await this.pool.query<AuditRow>(
      'SELECT guild_id, user_id, action, result, detail, at FROM audit WHERE guild_id = $1 ORDER BY id DESC LIMIT $2',
      [guildId, limit],
    );
    return rows.map(toAuditEntry);
  }

  async listAll(): Promise<AuditEntry[]> {
    const { rows } = await this.pool.query<AuditRow>(
      'SELECT guild_id, user_id, action, result, detail, at FROM audit ORDER BY id',
    );
    return rows.map(toAuditEntry);
  }

  async sweep(before: number): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM audit WHERE at < $1', [before]);
    return rowCount ?? 0;
  }
}
