import type { Database, Statement } from 'better-sqlite3';

import { HookRecordSchema, type HookRecord, type HookStore } from '../hooks.js';
import type { WriteBatcher } from './write-batcher.js';

interface HookRow {
  hook_id: string;
  guild_id: string;
  webhook_id: string | null;
  secret: string;
  events: string;
  created_at: number;
}

/** Hooks in the `hook` table. Reads go straight to SQLite (a primary-key lookup costs a few µs: no cache). */
export class SqliteHooks implements HookStore {
  private readonly byId: Statement<[string], HookRow>;
  private readonly byGuild: Statement<[string], HookRow>;
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
    return Promise.resolve((this.all.all() as HookRow[]).map(toRecord));
  }

  listForGuild(guildId: string): Promise<HookRecord[]> {
    return Promise.resolve(this.byGuild.all(guildId).map(toRecord));
  }
}

function toRecord(row: HookRow): HookRecord {
  return HookRecordSchema.parse({
    hookId: row.hook_id,
    guildId: row.guild_id,
    webhookId: row.webhook_id,
    secret: row.secret,
    events: JSON.parse(row.events) as unknown,
    createdAt: row.created_at,
  });
}
