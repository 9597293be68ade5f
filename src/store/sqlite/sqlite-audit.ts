import type { Database, Statement } from 'better-sqlite3';

import type { AuditEntry, AuditLog } from '../audit-log.js';
import { AUDIT, toAuditEntry } from '../audit-rows.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import type { RowOf } from '../table-columns.js';
import { prepare } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

const OF_GUILD = d.select(AUDIT).from<[string, number]>('audit WHERE guild_id = ? ORDER BY id DESC LIMIT ?');
const ALL = d.select(AUDIT).from<[]>('audit ORDER BY id');

/** The `audit` table: the id is the order (one writer), so newest first is by id, whatever the clock did. */
export class SqliteAudit implements AuditLog {
  private readonly insert: Statement<[string, string, string, string, string | null, number]>;
  private readonly ofGuild: Statement<[string, number], RowOf<typeof AUDIT, 'sqlite'>>;
  private readonly all: Statement<[], RowOf<typeof AUDIT, 'sqlite'>>;
  private readonly older: Statement<[number]>;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.ofGuild = prepare(db, OF_GUILD);
    this.all = prepare(db, ALL);
    this.insert = db.prepare(
      'INSERT INTO audit (guild_id, user_id, action, result, detail, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.older = db.prepare('DELETE FROM audit WHERE at < ?');
  }

  append(entry: AuditEntry): Promise<void> {
    return this.writes.run(() => {
      this.insert.run(entry.guildId, entry.userId, entry.action, entry.result, entry.detail, entry.at);
    });
  }

  latest(guildId: string, limit: number): Promise<AuditEntry[]> {
    return Promise.resolve(this.ofGuild.all(guildId, limit).map(toAuditEntry));
  }

  listAll(): Promise<AuditEntry[]> {
    return Promise.resolve(this.all.all().map(toAuditEntry));
  }

  sweep(before: number): Promise<number> {
    return this.writes.run(() => this.older.run(before).changes);
  }
}
