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
 * Guild settings by guild id, all held in memory (loaded once at start): the feed routes every entry with
 * them, synchronously, and this process is their only writer.
 */
export class GuildSettingsRepository {
  private readonly cache = new Map<string, GuildSettings>();
  private readonly listeners = new Set<(guildId: string) => void>();

  private constructor(private readonly records: TypedCollection<typeof GuildSettingsSchema>) {}

  static async load(records: TypedCollection<typeof GuildSettingsSchema>): Promise<GuildSettingsRepository> {
    const repository = new GuildSettingsRepository(records);
    for (const [guildId, settings] of await records.entries()) repository.cache.set(guildId, settings);
    return repository;
  }

  /** The guild's settings, or empty ones when it has none yet. */
  get(guildId: string): GuildSettings {
    return this.cache.get(guildId) ?? emptyGuildSettings(guildId);
  }

  /** Applies `change` to a copy of the settings, stores the result and tells the listeners. */
  async update(guildId: string, change: (settings: GuildSettings) => GuildSettings): Promise<GuildSettings> {
    const next = change(structuredClone(this.get(guildId)));
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
