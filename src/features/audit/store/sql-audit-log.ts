import type { SqlDialect } from '../../../store/sql-dialect.js';
import type { SqlRunner } from '../../../store/sql-runner.js';
import type { AuditEntry, AuditKind, AuditLog } from './audit-log.js';
import { AUDIT, toAuditEntry } from './audit-rows.js';

/** The audit log's statements, written once for both engines. */
function auditStatements(d: SqlDialect) {
  return {
    append: d.sql<never, [string, string, string, string, string | null, number, string, string | null]>(
      'INSERT INTO audit (guild_id, user_id, action, result, detail, at, kind, subject) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    ofGuild: d.select(AUDIT).from<[string, number]>('audit WHERE guild_id = ? ORDER BY id DESC LIMIT ?'),
    ofGuildAndKind: d
      .select(AUDIT)
      .from<[string, string, number]>('audit WHERE guild_id = ? AND kind = ? ORDER BY id DESC LIMIT ?'),
    all: d.select(AUDIT).from<[]>('audit ORDER BY id'),
    older: d.sql<never, [number]>('DELETE FROM audit WHERE at < ?'),
  };
}

/**
 * The `audit` table on either engine. Newest first is by id, which follows insertion (SQLite: one writer;
 * PostgreSQL: its identity column), whatever the clock did.
 */
export class SqlAuditLog implements AuditLog {
  private readonly sql: ReturnType<typeof auditStatements>;

  constructor(
    d: SqlDialect,
    private readonly runner: SqlRunner,
  ) {
    this.sql = auditStatements(d);
  }

  async append(entry: AuditEntry): Promise<void> {
    const { guildId, userId, action, result, detail, at, kind = 'action', subject = null } = entry;
    await this.runner.write([
      { sql: this.sql.append, params: [guildId, userId, action, result, detail, at, kind, subject] },
    ]);
  }

  async latest(guildId: string, limit: number, kind?: AuditKind): Promise<AuditEntry[]> {
    const rows =
      kind === undefined
        ? await this.runner.read(this.sql.ofGuild, [guildId, limit])
        : await this.runner.read(this.sql.ofGuildAndKind, [guildId, kind, limit]);
    return rows.map(toAuditEntry);
  }

  async listAll(): Promise<AuditEntry[]> {
    return (await this.runner.read(this.sql.all, [])).map(toAuditEntry);
  }

  sweep(before: number): Promise<number> {
    return this.runner.write([{ sql: this.sql.older, params: [before] }]);
  }
}
