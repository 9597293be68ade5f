import type pg from 'pg';

import type { AuditEntry, AuditLog } from '../audit-log.js';
import { AUDIT, toAuditEntry } from '../audit-rows.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { rowsOf } from './pg-sql.js';

const OF_GUILD = d.select(AUDIT).from<[string, number]>('audit WHERE guild_id = ? ORDER BY id DESC LIMIT ?');
const ALL = d.select(AUDIT).from<[]>('audit ORDER BY id');

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
    return (await rowsOf(this.pool, OF_GUILD, [guildId, limit])).map(toAuditEntry);
  }

  async listAll(): Promise<AuditEntry[]> {
    return (await rowsOf(this.pool, ALL, [])).map(toAuditEntry);
  }

  async sweep(before: number): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM audit WHERE at < $1', [before]);
    return rowCount ?? 0;
  }
}
