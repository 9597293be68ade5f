import type pg from 'pg';

import { countForgotten, keptByModules, type ForgottenGuild, type GuildForgetting } from '../forget-guild.js';
import { emptyGuildSettings, GuildSettingsSchema } from '../guild-settings.js';
import { setAsideStatements } from '../set-aside-statements.js';
import { postgresDialect as d, type Sql } from '../sql-dialect.js';
import type { StoreModule } from '../store-module.js';
import { columns } from '../table-columns.js';
import { GUILD_LOCK_SQL, SETTINGS_OF, type PostgresGuildSettings } from './pg-guild-settings.js';
import type { PostgresHooks } from './pg-hooks.js';
import { notify } from './pg-signals.js';
import { changesOf, rowsOf } from './pg-sql.js';
import { inTransaction } from './transaction.js';

const SET_ASIDE_SQL = setAsideStatements(d);

/** The guild's hooks, locked in hook_id order. */
const HOOKS_OF = d
  .select(columns('hook', 'hook_id'))
  .from<[string]>('hook WHERE guild_id = ? ORDER BY hook_id FOR UPDATE');

/** Forgets a guild the bot left, in one transaction; every process hears of it at the commit. */
export class PostgresGuildForgetting implements GuildForgetting {
  /** What each module deletes of the guild, and what it counts the rows under. */
  private readonly forgetInModules: ReadonlyArray<{ sql: Sql<never, [string]>; counted: string | undefined }>;
  private readonly keptElsewhere: string;

  constructor(
    private readonly pool: pg.Pool,
    private readonly hooks: PostgresHooks,
    private readonly guilds: PostgresGuildSettings,
    modules: readonly StoreModule[],
  ) {
    this.forgetInModules = modules
      .flatMap((module) => module.forgetGuild)
      .map(({ sql, counted }) => ({ sql: d.sql<never, [string]>(sql), counted }));
    this.keptElsewhere = keptByModules(modules);
  }

  async knownGuilds(): Promise<string[]> {
    // Forgetting empties the settings row (its version goes on counting) rather than deleting it.
    const { rows } = await this.pool.query<{ guild_id: string }>(
      `SELECT guild_id FROM hook
       UNION SELECT guild_id FROM guild_settings WHERE settings - 'guildId' <> $1::jsonb - 'guildId'
       ${this.keptElsewhere}`,
      [JSON.stringify(emptyGuildSettings(''))],
    );
    return rows.map((row) => row.guild_id);
  }

  async forgetGuild(guildId: string): Promise<ForgottenGuild> {
    const { hookIds, forgotten } = await inTransaction(this.pool, async (client) => {
      // The hook rows first, in hook_id order, then the guild's lock, as a hook's removal takes them (and the
      // previous version's accept, which locked the hook rows before its guild's lock). The lock comes before
      // anything is deleted: an accept (bridge_accept_placed) holds it while it reads the hooks and counts their
      // activity, so it finds nothing of this removal half done, and this removal waits for it to commit.
      const ids = (await rowsOf(client, HOOKS_OF, [guildId])).map((row) => row.hook_id);
      await client.query(GUILD_LOCK_SQL, [guildId]);
      await client.query('DELETE FROM hook WHERE hook_id = ANY($1::text[])', [ids]);
      await client.query('DELETE FROM hook_activity WHERE hook_id = ANY($1::text[])', [ids]);
      const [settings] = await rowsOf(client, SETTINGS_OF, [guildId]);
      const before = settings ? GuildSettingsSchema.parse(settings.settings) : undefined;
      // Emptied, not deleted: the version goes on counting, so settings cached before cannot pass for current.
      await client.query('UPDATE guild_settings SET settings = $2, version = version + 1 WHERE guild_id = $1', [
        guildId,
        JSON.stringify(emptyGuildSettings(guildId)),
      ]);
      const open = await client.query(`DELETE FROM delivery WHERE guild_id = $1 AND state IN ('waiting', 'parked')`, [
        guildId,
      ]);
      await client.query('DELETE FROM delivery WHERE guild_id = $1', [guildId]);
      await client.query('DELETE FROM channel_state WHERE guild_id = $1', [guildId]);
      // The guild's own key, or the guild's key and ':' then more (DocumentStore): no LIKE, whose _ and % would match.
      const documents = await client.query(`DELETE FROM record WHERE key = $1 OR starts_with(key, $1 || ':')`, [
        guildId,
      ]);
      const counts: Record<string, number> = {};
      for (const { sql, counted } of this.forgetInModules) {
        countForgotten(counts, counted, await changesOf(client, sql, [guildId]));
      }
      await changesOf(client, SET_ASIDE_SQL.forgetGuild, [guildId]);
      for (const hookId of ids) await notify(client, { kind: 'hook-changed', hookId });
      await notify(client, { kind: 'settings-changed', guildId });
      return {
        hookIds: ids,
        forgotten: {
          hooks: ids.length,
          serverKeys: (before?.serverKey ?? null) === null ? 0 : 1,
          openDeliveries: open.rowCount ?? 0,
          documents: documents.rowCount ?? 0,
          ...counts,
        },
      };
    });
    this.hooks.dropCached(hookIds);
    this.guilds.dropCached(guildId);
    return forgotten;
  }
}
