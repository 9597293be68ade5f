import type pg from 'pg';

import { BoundedCache } from '../bounded-cache.js';
import {
  emptyGuildSettings,
  GuildSettingsSchema,
  type GuildSettings,
  type GuildSettingsStore,
} from '../guild-settings.js';
import type { StoreSignals } from '../signals.js';
import { rerouteGuild } from './pg-reroute.js';
import { inTransaction } from './transaction.js';

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
    const { rows } = await this.pool.query<{ settings: unknown; version: number }>(
      'SELECT settings, version FROM guild_settings WHERE guild_id = $1',
      [guildId],
    );
    const row = rows[0];
    const versioned = row
      ? { settings: GuildSettingsSchema.parse(row.settings), version: row.version }
      : { settings: emptyGuildSettings(guildId), version: 0 };
    this.cache.set(guildId, versioned);
    return versioned;
  }

  async listAll(): Promise<GuildSettings[]> {
    const { rows } = await this.pool.query<{ settings: unknown }>(
      'SELECT settings FROM guild_settings ORDER BY guild_id',
    );
    return rows.map((row) => GuildSettingsSchema.parse(row.settings));
  }

  async update(guildId: string, change: (settings: GuildSettings) => GuildSettings): Promise<GuildSettings> {
    const next = await inTransaction(this.pool, async (client) => {
      // The guild's lock: no accept of this guild commits between the read and the re-route below.
      await client.query(GUILD_LOCK_SQL, [guildId]);
      const { rows } = await client.query<{ settings: unknown }>(
        'SELECT settings FROM guild_settings WHERE guild_id = $1',
        [guildId],
      );
      const current = rows[0] ? GuildSettingsSchema.parse(rows[0].settings) : emptyGuildSettings(guildId);
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
