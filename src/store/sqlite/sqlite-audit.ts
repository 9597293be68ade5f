import type { Database, Statement } from 'better-sqlite3';

import type { AuditEntry, AuditLog } from '../audit-log.js';
import { toAuditEntry, type AuditRow } from '../audit-rows.js';
import type { WriteBatcher } from './write-batcher.js';

/** The `audit` table: the id is the order (one writer), so newest first is by id, whatever the clock did. */
export class SqliteAudit implements AuditLog {
  private readonly insert: Statement<[string, string, string, string, string | null, number]>;
  private readonly ofGuild: Statement<[string, number], AuditRow>;
  private readonly older: Statement<[number]>;

  constructor(
    private readonly db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.insert = db.prepare(
      'INSERT INTO audit (guild_id, user_id, action, result, detail, at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.ofGuild = db.prepare(
      'SELECT guild_id, user_id, action, result, detail, at FROM audit WHERE guild_id = ? ORDER BY id DESC LIMIT ?',
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
    const rows = this.db
      .prepare('SELECT guild_id, user_id, action, result, detail, at FROM audit ORDER BY id')
      .all() as AuditRow[];
    return Promise.resolve(rows.map(toAuditEntry));
  }

  sweep(before: number): Promise<number> {
    return this.writes.run(() => this.older.run(before).changes);
  }
}
