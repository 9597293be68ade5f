import type { Database, Statement } from 'better-sqlite3';

import { toHookRecord, type HookRow } from '../hook-rows.js';
import type { HookRecord, HookStore } from '../hooks.js';
import type { WriteBatcher } from './write-batcher.js';

/** A `hook` row as SQLite returns it: `events` is JSON text. */
type SqliteHookRow = Omit<HookRow, 'events'> & { events: string };

function toRecord(row: SqliteHookRow): HookRecord {
  return toHookRecord({ ...row, events: JSON.parse(row.events) as unknown });
}

/** Hooks in the `hook` table. Reads go straight to SQLite (a primary-key lookup costs a few µs: no cache). */
export class SqliteHooks implements HookStore {
  private readonly byId: Statement<[string], SqliteHookRow>;
  private readonly byGuild: Statement<[string], SqliteHookRow>;
  private readonly upsert: Statement<[string, string, string | null, string, string, number]>;
  private readonly delete: Statement<[string]>;
  private readonly all: Statement<[]>;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.byId = db.prepare('SELECT * FROM hook WHERE hook_id = ?');
    this.byGuild = db.prepare('SELECT * FROM hook WHERE guild_id = ? ORDER BY created_at, hook_id');
    this.upsert = db.prepare(
      `INSERT INTO hook (hook_id, guild_id, webhook_id, secret, events, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (hook_id) DO UPDATE SET guild_id = excluded.guild_id, webhook_id = excluded.webhook_id,
         secret = excluded.secret, events = excluded.events, created_at = excluded.created_at`,
    );
    this.delete = db.prepare('DELETE FROM hook WHERE hook_id = ?');
    this.all = db.prepare('SELECT * FROM hook ORDER BY created_at, hook_id');
  }

  get(hookId: string): Promise<HookRecord | undefined> {
    const row = this.byId.get(hookId);
    return Promise.resolve(row && toRecord(row));
  }

  save(record: HookRecord): Promise<void> {
    return this.writes.run((tx) => {
      this.upsert.run(
        record.hookId,
        record.guildId,
        record.webhookId,
        record.secret,
        JSON.stringify(record.events),
        record.createdAt,
      );
      tx.afterCommit({ kind: 'hook-changed', hookId: record.hookId });
    });
  }

  remove(hookId: string): Promise<void> {
    return this.writes.run((tx) => {
      this.delete.run(hookId);
      tx.afterCommit({ kind: 'hook-changed', hookId });
    });
  }

  listAll(): Promise<HookRecord[]> {
    return Promise.resolve((this.all.all() as SqliteHookRow[]).map(toRecord));
  }

  listForGuild(guildId: string): Promise<HookRecord[]> {
    return Promise.resolve(this.byGuild.all(guildId).map(toRecord));
  }
}
