import { z } from 'zod';

/** The most rules (beyond one channel per event) a guild may have: /feed show lists them all in one reply. */
export const MAX_RULES = 40;

/**
 * A routing rule that names a game server or a case type (rules by event alone are `routes`). A field left out
 * matches anything. The most specific matching rule wins (routing-rules.ts).
 */
export const RouteRuleSchema = z.object({
  /** The game server (`server` of the delivery). */
  server: z.string().optional(),
  /** The event; left out: every event. */
  event: z.string().optional(),
  /** The case's `type` (`warn`, `ban` …); only case events have one. */
  caseType: z.string().optional(),
  /** Where those events go; null: off (stored, counted as muted, never posted). */
  channelId: z.string().nullable(),
  /** The role pinged with them, instead of the event's own mention. */
  mentionRoleId: z.string().optional(),
});
export type RouteRule = z.infer<typeof RouteRuleSchema>;

/** What an admin configured for one Discord server (guild). */
export const GuildSettingsSchema = z.object({
  guildId: z.string(),
  /** The service's server key, sealed by the SecretBox when SECRET_KEY is set; null until /setup. */
  serverKey: z.string().nullable(),
  /** Where events without a route of their own go; null: nowhere (they are held as unrouted). */
  defaultChannelId: z.string().nullable(),
  /** Event name -> channel id, or null: the event is off (muted). */
  routes: z.record(z.string(), z.string().nullable()),
  /** Rules that name a game server or a case type; settings stored before they existed have none. */
  rules: z.array(RouteRuleSchema).default([]),
  /** Event name -> role id pinged with that event. */
  mentions: z.record(z.string(), z.string()),
});
export type GuildSettings = z.infer<typeof GuildSettingsSchema>;

/** Settings of a guild nobody configured yet. */
export function emptyGuildSettings(guildId: string): GuildSettings {
  return { guildId, serverKey: null, defaultChannelId: null, routes: {}, rules: [], mentions: {} };
}

/** Guild settings, stored; every change is atomic (no lost update when two admins change settings at once). */
export interface GuildSettingsStore {
  /** The guild's settings, or empty ones when it has none yet. */
  get(guildId: string): Promise<GuildSettings>;
  /**
   * Applies `change` to the stored settings and stores the result in one transaction; the feed's waiting and
   * held (unrouted, broken-channel) entries of the guild are routed again by the new settings in the same
   * transaction, and the guild's broken channels are tried again.
   */
  update(guildId: string, change: (settings: GuildSettings) => GuildSettings): Promise<GuildSettings>;
  /** Every guild's stored settings (moving a store to another engine). */
  listAll(): Promise<GuildSettings[]>;
}
