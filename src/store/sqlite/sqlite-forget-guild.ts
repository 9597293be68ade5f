import type { Database, Statement } from 'better-sqlite3';

import { countForgotten, keptByModules, type ForgottenGuild, type GuildForgetting } from '../forget-guild.js';
import { GuildSettingsSchema } from '../guild-settings.js';
import { setAsideStatements } from '../set-aside-statements.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import type { StoreModule } from '../store-module.js';
import type { RowOf } from '../table-columns.js';
import { SETTINGS } from './sqlite-guild-settings.js';
import type { SqliteHooks } from './sqlite-hooks.js';
import { prepare } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** Forgets a guild the bot left, in one job of the single writer (so no accept of its hooks comes between). */
export class SqliteGuildForgetting implements GuildForgetting {
  private readonly forgetActivity: Statement<[string]>;
  private readonly settingsOf: Statement<[string], RowOf<typeof SETTINGS, 'sqlite'>>;
  private readonly forgetSettings: Statement<[string]>;
  private readonly dropOpen: Statement<[string]>;
  private readonly forgetPosted: Statement<[string]>;
  private readonly forgetChannels: Statement<[string]>;
  private readonly forgetDocuments: Statement<[{ guildId: string }]>;
  /** What each module deletes of the guild, and what it counts the rows under. */
  private readonly forgetInModules: Array<{ statement: Statement<[string]>; counted: string | undefined }>;
  private readonly forgetSetAside: Statement<[string]>;
  private readonly known: Statement<[], { guild_id: string }>;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
    private readonly hooks: SqliteHooks,
    modules: readonly StoreModule[],
  ) {
    this.forgetActivity = db.prepare('DELETE FROM hook_activity WHERE hook_id IN (SELECT value FROM json_each(?))');
    this.settingsOf = prepare(db, d.select(SETTINGS).from<[string]>('guild_settings WHERE guild_id = ?'));
    this.forgetSettings = db.prepare('DELETE FROM guild_settings WHERE guild_id = ?');
    this.dropOpen = db.prepare(`DELETE FROM delivery WHERE guild_id = ? AND state IN ('waiting', 'parked')`);
    this.forgetPosted = db.prepare('DELETE FROM delivery WHERE guild_id = ?');
    this.forgetChannels = db.prepare('DELETE FROM channel_state WHERE guild_id = ?');
    // The guild's own key, or the guild's key and ':' then more (DocumentStore): no LIKE, whose _ and % would match.
    this.forgetDocuments = db.prepare(
      `DELETE FROM record WHERE key = @guildId OR substr(key, 1, length(@guildId) + 1) = @guildId || ':'`,
    );
    this.forgetInModules = modules
      .flatMap((module) => module.forgetGuild)
      .map(({ sql, counted }) => ({ statement: prepare(db, d.sql<never, [string]>(sql)), counted }));
    this.forgetSetAside = prepare(db, setAsideStatements(d).forgetGuild);
    // Forgetting deletes these rows: what is left is a guild's.
    this.known = db.prepare(
      `SELECT guild_id FROM hook UNION SELECT guild_id FROM guild_settings ${keptByModules(modules)}`,
    );
  }

  knownGuilds(): Promise<string[]> {
    return Promise.resolve(this.known.all().map((row) => row.guild_id));
  }

  forgetGuild(guildId: string): Promise<ForgottenGuild> {
    return this.writes.run((tx) => {
      const hookIds = this.hooks.removeGuild(tx, guildId);
      this.forgetActivity.run(JSON.stringify(hookIds));
      const stored = this.settingsOf.get(guildId);
      const serverKeys = stored && GuildSettingsSchema.parse(JSON.parse(stored.settings)).serverKey !== null ? 1 : 0;
      this.forgetSettings.run(guildId);
      const openDeliveries = this.dropOpen.run(guildId).changes;
      this.forgetPosted.run(guildId);
      this.forgetChannels.run(guildId);
      const documents = this.forgetDocuments.run({ guildId }).changes;
      const counts: Record<string, number> = {};
      for (const { statement, counted } of this.forgetInModules) {
        countForgotten(counts, counted, statement.run(guildId).changes);
      }
      this.forgetSetAside.run(guildId);
      tx.afterCommit({ kind: 'settings-changed', guildId });
      return { hooks: hookIds.length, serverKeys, openDeliveries, documents, ...counts };
    });
  }
}
