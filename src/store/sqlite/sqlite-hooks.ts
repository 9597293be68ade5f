import type { Database, Statement } from 'better-sqlite3';

import { BoundedCache } from '../bounded-cache.js';
import { HOOK, toStoredHook } from '../hook-rows.js';
import type { HookStore, StoredHook } from '../hooks.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import { columns, type RowOf } from '../table-columns.js';
import { prepare } from './sqlite-sql.js';
import type { WriteBatcher, WriteContext } from './write-batcher.js';

/** Hooks the intake looks up on every delivery, kept this many at most. */
const CACHED_HOOKS = 10_000;

/** A `hook` row as SQLite returns it: `events` is JSON text. */
type SqliteHookRow = RowOf<typeof HOOK, 'sqlite'>;

const BY_ID = d.select(HOOK).from<[string]>('hook WHERE hook_id = ?');
const BY_GUILD = d.select(HOOK).from<[string]>('hook WHERE guild_id = ? ORDER BY created_at, hook_id');
const ALL = d.select(HOOK).from<[]>('hook ORDER BY created_at, hook_id');
const IDS = columns('hook', 'hook_id');

function storedHookOf(row: SqliteHookRow): StoredHook {
  return toStoredHook({ ...row, events: JSON.parse(row.events) as unknown });
}

/** Hooks in the `hook` table, with an exact bounded cache of the ones the intake looked up. */
export class SqliteHooks implements HookStore {
  private readonly byId: Statement<[string], SqliteHookRow>;
  /**
   * The intake looks its hook up on every delivery. This process is the file's only writer and every write of a
   * hook goes through here, which drops the copy: the cache is exact.
   */
  private readonly cache = new BoundedCache<StoredHook>(CACHED_HOOKS);
  private readonly byGuild: Statement<[string], SqliteHookRow>;
  private readonly upsert: Statement<[string, string, string | null, string, string, number]>;
  private readonly delete: Statement<[string]>;
  private readonly all: Statement<[], SqliteHookRow>;
  private readonly idsOfGuild: Statement<[string], RowOf<typeof IDS>>;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
  ) {
    this.byId = prepare(db, BY_ID);
    this.byGuild = prepare(db, BY_GUILD);
    this.upsert = db.prepare(
      `INSERT INTO hook (hook_id, guild_id, webhook_id, secret, events, created_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (hook_id) DO UPDATE SET guild_id = excluded.guild_id, webhook_id = excluded.webhook_id,
         secret = excluded.secret, events = excluded.events, created_at = excluded.created_at`,
    );
    this.delete = db.prepare('DELETE FROM hook WHERE hook_id = ?');
    this.all = prepare(db, ALL);
    this.idsOfGuild = prepare(db, d.select(IDS).from<[string]>('hook WHERE guild_id = ?'));
  }

  get(hookId: string): Promise<StoredHook | undefined> {
    const cached = this.cache.get(hookId);
    if (cached) return Promise.resolve(cached);
    const row = this.byId.get(hookId);
    if (!row) return Promise.resolve(undefined);
    // Unknown ids are not cached: anyone can send random ids and the cache must not fill with them.
    const hook = storedHookOf(row);
    this.cache.set(hookId, hook);
    return Promise.resolve(hook);
  }

  save(hook: StoredHook): Promise<void> {
    return this.writes.run((tx) => {
      this.upsert.run(
        hook.hookId,
        hook.guildId,
        hook.webhookId,
        hook.secret,
        JSON.stringify(hook.events),
        hook.createdAt,
      );
      this.cache.delete(hook.hookId);
      tx.afterCommit({ kind: 'hook-changed', hookId: hook.hookId });
    });
  }

  remove(hookId: string): Promise<void> {
    return this.writes.run((tx) => {
      this.delete.run(hookId);
      this.cache.delete(hookId);
      tx.afterCommit({ kind: 'hook-changed', hookId });
    });
  }

  /**
   * Removes every hook of a guild inside the caller's write (forgetting the guild), dropping the cached copies
   * as every write of a hook does; returns their ids.
   */
  removeGuild(tx: WriteContext, guildId: string): string[] {
    const hookIds = this.idsOfGuild.all(guildId).map((row) => row.hook_id);
    for (const hookId of hookIds) {
      this.delete.run(hookId);
      this.cache.delete(hookId);
      tx.afterCommit({ kind: 'hook-changed', hookId });
    }
    return hookIds;
  }

  listAll(): Promise<StoredHook[]> {
    return Promise.resolve(this.all.all().map(storedHookOf));
  }

  listForGuild(guildId: string): Promise<StoredHook[]> {
    return Promise.resolve(this.byGuild.all(guildId).map(storedHookOf));
  }
}
