import { z } from 'zod';

/** What an admin configured for one Discord server (guild). */
export const GuildSettingsSchema = z.object({
  guildId: z.string(),
  /** The service's server key, sealed by the SecretBox when SECRET_KEY is set; null until /setup. */
  serverKey: z.string().nullable(),
  /** Where events without a route of their own go; null: nowhere (they are parked as unrouted). */
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

/** Guild settings, stored; every change is atomic (no lost update when two admins change settings at once). */
export interface GuildSettingsStore {
  /** The guild's settings, or empty ones when it has none yet. */
  get(guildId: string): Promise<GuildSettings>;
  /**
   * Applies `change` to the stored settings and stores the result in one transaction; the feed's waiting and
   * parked (unrouted, broken-channel) entries of the guild are routed again by the new settings in the same
   * transaction, and the guild's broken channels are tried again.
   */
  update(guildId: string, change: (settings: GuildSettings) => GuildSettings): Promise<GuildSettings>;
  /** Every guild's stored settings (moving a store to another engine). */
  listAll(): Promise<GuildSettings[]>;
}
