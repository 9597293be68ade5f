import type pg from 'pg';

import { BoundedCache } from '../bounded-cache.js';
import {
  emptyGuildSettings,
  GuildSettingsSchema,
  type GuildSettings,
  type GuildSettingsStore,
} from '../guild-settings.js';
import type { StoreSignals } from '../signals.js';
import { postgresDialect as d } from '../sql-dialect.js';
import { columns } from '../table-columns.js';
import type { GuildSettingsTable } from '../tables.js';
import { rerouteGuild } from './pg-reroute.js';
import { rowsOf } from './pg-sql.js';
import { inTransaction } from './transaction.js';

/** The column a guild's settings are read from (JSONB: pg parses it). */
const SETTINGS = columns('guild_settings', 'settings');

/** A guild's settings. */
export const SETTINGS_OF = d.select(SETTINGS).from<[string]>('guild_settings WHERE guild_id = ?');
const ALL_SETTINGS = d.select(SETTINGS).from<[]>('guild_settings ORDER BY guild_id');
/**
 * A guild's settings with their version: PostgreSQL's own column (bumped by every change; an accept routed with
 * an older one is refused), which SQLite's single writer needs none of, so the generated type does not have it.
 */
const VERSIONED = d.sql<Pick<GuildSettingsTable<'postgres'>, 'settings'> & { version: number }, [string]>(
  'SELECT settings, version FROM guild_settings WHERE guild_id = ?',
);

/** A guild's settings and the version they were stored under (0: never stored). */
export interface VersionedSettings {
  settings: GuildSettings;
  version: number;
}

/** Settings the intake routes with, kept this many at most; any process's change drops its copy. */
const CACHED_GUILDS = 10_000;

/** Per-guild advisory lock: a guild's accepts and settings changes take it, so they never interleave. */
export const GUILD_LOCK_SQL = `SELECT pg_advisory_xact_lock(hashtextextended('bridge.guild:' || $1, 0))`;

/** Guild settings in `guild_settings`, JSONB with a version; a bounded cache invalidated by signals. */
export class PostgresGuildSettings implements GuildSettingsStore {
  private readonly cache = new BoundedCache<VersionedSettings>(CACHED_GUILDS);

  constructor(
    private readonly pool: pg.Pool,
    signals: StoreSignals,
    private readonly clock: () => number,
  ) {
    signals.subscribe((signal) => {
      if (signal.kind === 'settings-changed') this.cache.delete(signal.guildId);
      else if (signal.kind === 'resync') this.cache.clear();
    });
  }

  async get(guildId: string): Promise<GuildSettings> {
    return (await this.versioned(guildId)).settings;
  }

  /** The settings with their version, from the cache when it has them (the intake's path). */
  async versioned(guildId: string, fresh = false): Promise<VersionedSettings> {
    const cached = fresh ? undefined : this.cache.get(guildId);
    if (cached) return cached;
    const [row] = await rowsOf(this.pool, VERSIONED, [guildId]);
    const versioned = row
      ? { settings: GuildSettingsSchema.parse(row.settings), version: row.version }
      : { settings: emptyGuildSettings(guildId), version: 0 };
    this.cache.set(guildId, versioned);
    return versioned;
  }

  async listAll(): Promise<GuildSettings[]> {
    return (await rowsOf(this.pool, ALL_SETTINGS, [])).map((row) => GuildSettingsSchema.parse(row.settings));
  }

  async update(guildId: string, change: (settings: GuildSettings) => GuildSettings): Promise<GuildSettings> {
    const next = await inTransaction(this.pool, async (client) => {
      // The guild's lock: no accept of this guild commits between the read and the re-route below.
      await client.query(GUILD_LOCK_SQL, [guildId]);
      const [row] = await rowsOf(client, SETTINGS_OF, [guildId]);
      const current = row ? GuildSettingsSchema.parse(row.settings) : emptyGuildSettings(guildId);
      const changed = GuildSettingsSchema.parse(change(structuredClone(current)));
      await client.query(
        `INSERT INTO guild_settings (guild_id, settings, version) VALUES ($1, $2, 1)
         ON CONFLICT (guild_id) DO UPDATE SET settings = EXCLUDED.settings, version = guild_settings.version + 1`,
        [guildId, JSON.stringify(changed)],
      );
      await rerouteGuild(client, guildId, changed, this.clock());
      return changed;
    });
    this.cache.delete(guildId);
    return next;
  }

  /** Drops this process's copy of a guild's settings changed elsewhere in the store (its notice follows at once). */
  dropCached(guildId: string): void {
    this.cache.delete(guildId);
  }
}
