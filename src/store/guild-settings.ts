import { z } from 'zod';
import type { TypedCollection } from './typed-collection.js';

/** What an admin configured for one Discord server (guild). */
export const GuildSettingsSchema = z.object({
  guildId: z.string(),
  /** The service's server key, sealed by the SecretBox when SECRET_KEY is set; null until /setup. */
  serverKey: z.string().nullable(),
  /** Where events without a route of their own go; null: nowhere (they wait in the outbox). */
  defaultChannelId: z.string().nullable(),
  /** Event name -> channel id. */
  routes: z.record(z.string(), z.string()),
  /** Event name -> role id pinged with that event. */
  mentions: z.record(z.string(), z.string()),
});
export type GuildSettings = z.infer<typeof GuildSettingsSchema>;

/** Settings of a guild nobody configured yet. */
export function emptyGuildSettings(guildId: string): GuildSettings {
  return { guildId, serverKey: null, defaultChannelId: null, routes: {}, mentions: {} };
}

/**
 * Guild settings by guild id, cached in memory: the feed reads them for every message, and this process is
 * their only writer.
 */
export class GuildSettingsRepository {
  private readonly cache = new Map<string, GuildSettings>();
  private readonly listeners = new Set<(guildId: string) => void>();

  constructor(private readonly records: TypedCollection<typeof GuildSettingsSchema>) {}

  /** The guild's settings, or empty ones when it has none yet. */
  async get(guildId: string): Promise<GuildSettings> {
    const cached = this.cache.get(guildId);
    if (cached) return cached;
    const settings = (await this.records.get(guildId)) ?? emptyGuildSettings(guildId);
    this.cache.set(guildId, settings);
    return settings;
  }

  /** Applies `change` to a copy of the settings, stores the result and tells the listeners. */
  async update(guildId: string, change: (settings: GuildSettings) => GuildSettings): Promise<GuildSettings> {
    const next = change(structuredClone(await this.get(guildId)));
    await this.records.set(guildId, next);
    this.cache.set(guildId, next);
    for (const listener of this.listeners) listener(guildId);
    return next;
  }

  /** Calls `listener` whenever a guild's settings change (the feed retries broken routes then). */
  onChange(listener: (guildId: string) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
