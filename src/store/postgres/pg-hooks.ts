import type pg from 'pg';

import { BoundedCache } from '../bounded-cache.js';
import { HOOK, toStoredHook } from '../hook-rows.js';
import type { HookStore, StoredHook } from '../hooks.js';
import type { StoreSignals } from '../signals.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { columns } from '../table-columns.js';
import { GUILD_LOCK_SQL } from './pg-guild-settings.js';
import { notify } from './pg-signals.js';
import { rowsOf } from './pg-sql.js';
import { inTransaction } from './transaction.js';

const BY_ID = d.select(HOOK).from<[string]>('hook WHERE hook_id = ?');
const BY_GUILD = d.select(HOOK).from<[string]>('hook WHERE guild_id = ? ORDER BY created_at, hook_id');
const ALL = d.select(HOOK).from<[]>('hook ORDER BY created_at, hook_id');
const GUILD_OF = d.select(columns('hook', 'guild_id')).from<[string]>('hook WHERE hook_id = ? FOR UPDATE');

/** Hooks the intake looks up on every delivery, kept this many at most; any process's change drops its copy. */
const CACHED_HOOKS = 10_000;

/** Hooks in the `hook` table, with a bounded cache invalidated by the `hook-changed` signal of any process. */
export class PostgresHooks implements HookStore {
  private readonly cache = new BoundedCache<StoredHook>(CACHED_HOOKS);

  constructor(
    private readonly pool: pg.Pool,
    signals: StoreSignals,
  ) {
    signals.subscribe((signal) => {
      if (signal.kind === 'hook-changed') this.cache.delete(signal.hookId);
      else if (signal.kind === 'resync') this.cache.clear();
    });
  }

  async get(hookId: string): Promise<StoredHook | undefined> {
    const cached = this.cache.get(hookId);
    if (cached) return cached;
    const [row] = await rowsOf(this.pool, BY_ID, [hookId]);
    if (!row) return undefined;
    // Unknown ids are not cached: anyone can send random ids and the cache must not fill with them.
    const hook = toStoredHook(row);
    this.cache.set(hookId, hook);
    return hook;
  }

  async save(hook: StoredHook): Promise<void> {
    await this.pool.query(
      `INSERT INTO hook (hook_id, guild_id, webhook_id, secret, events, created_at) VALUES ($1, $2, $3, $4, $5, $6)
       ON CONFLICT (hook_id) DO UPDATE SET guild_id = EXCLUDED.guild_id, webhook_id = EXCLUDED.webhook_id,
         secret = EXCLUDED.secret, events = EXCLUDED.events, created_at = EXCLUDED.created_at`,
      [hook.hookId, hook.guildId, hook.webhookId, hook.secret, JSON.stringify(hook.events), hook.createdAt],
    );
    this.cache.delete(hook.hookId);
    await notify(this.pool, { kind: 'hook-changed', hookId: hook.hookId });
  }

  async remove(hookId: string): Promise<void> {
    // The notice commits with the removal: a process that stopped between the two could not leave it unsaid.
    await inTransaction(this.pool, async (client) => {
      // The hook's guild lock held until the commit: an accept that requires the hook (bridge_accept_placed)
      // reads it under the same lock, so it stores its delivery before the removal or finds the hook gone. The
      // row first, then the lock: the order forgetting a guild takes them in, and the previous version's accept.
      const guildId = (await rowsOf(client, GUILD_OF, [hookId]))[0]?.guild_id;
      if (guildId === undefined) return;
      await client.query(GUILD_LOCK_SQL, [guildId]);
      await client.query('DELETE FROM hook WHERE hook_id = $1', [hookId]);
      await notify(client, { kind: 'hook-changed', hookId });
    });
    this.cache.delete(hookId);
  }

  /** Drops this process's copies of hooks removed elsewhere in the store (their notice follows at once). */
  dropCached(hookIds: readonly string[]): void {
    for (const hookId of hookIds) this.cache.delete(hookId);
  }

  async listAll(): Promise<StoredHook[]> {
    return (await rowsOf(this.pool, ALL, [])).map(toStoredHook);
  }

  async listForGuild(guildId: string): Promise<StoredHook[]> {
    return (await rowsOf(this.pool, BY_GUILD, [guildId])).map(toStoredHook);
  }
}
