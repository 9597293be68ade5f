import type { Database, Statement } from 'better-sqlite3';

import {
  emptyGuildSettings,
  GuildSettingsSchema,
  type GuildSettings,
  type GuildSettingsStore,
} from '../guild-settings.js';
import { sqliteDialect as d } from '../sql-dialect.js';
import { columns, type RowOf } from '../table-columns.js';
import type { SqliteReroute } from './sqlite-reroute.js';
import { prepare } from './sqlite-sql.js';
import type { WriteBatcher } from './write-batcher.js';

/** The column a guild's settings are read from (JSON text in SQLite). */
export const SETTINGS = columns('guild_settings', 'settings');
type SettingsRow = RowOf<typeof SETTINGS, 'sqlite'>;

/** Guild settings in the `guild_settings` table, one JSON document per guild. */
export class SqliteGuildSettings implements GuildSettingsStore {
  private readonly byId: Statement<[string], SettingsRow>;
  private readonly upsert: Statement<[string, string]>;
  private readonly all: Statement<[], SettingsRow>;

  constructor(
    db: Database,
    private readonly writes: WriteBatcher,
    private readonly routing: SqliteReroute,
  ) {
    this.byId = prepare(db, d.select(SETTINGS).from<[string]>('guild_settings WHERE guild_id = ?'));
    this.all = prepare(db, d.select(SETTINGS).from<[]>('guild_settings ORDER BY guild_id'));
    this.upsert = db.prepare(
      `INSERT INTO guild_settings (guild_id, settings) VALUES (?, ?)
       ON CONFLICT (guild_id) DO UPDATE SET settings = excluded.settings`,
    );
  }

  get(guildId: string): Promise<GuildSettings> {
    return Promise.resolve(this.read(guildId));
  }

  update(guildId: string, change: (settings: GuildSettings) => GuildSettings): Promise<GuildSettings> {
    // Read, change and write inside one transaction of the single writer: two changes at once both land.
    return this.writes.run((tx) => {
      const next = GuildSettingsSchema.parse(change(structuredClone(this.read(guildId))));
      this.upsert.run(guildId, JSON.stringify(next));
      this.routing.reroute(tx, guildId, next);
      return next;
    });
  }

  listAll(): Promise<GuildSettings[]> {
    return Promise.resolve(this.all.all().map((row) => GuildSettingsSchema.parse(JSON.parse(row.settings))));
  }

  private read(guildId: string): GuildSettings {
    const row = this.byId.get(guildId);
    return row ? GuildSettingsSchema.parse(JSON.parse(row.settings)) : emptyGuildSettings(guildId);
  }
}
