import type { GuildSettings } from '../store/guild-settings.js';

/** Where one event of a guild goes, and whom it pings. */
export interface Route {
  channelId: string;
  mentionRoleId?: string;
}

/**
 * The event's own channel, else the guild's default channel; null when neither is set (the entry is then
 * parked as unrouted and counted, so an admin sees it in /status and can route it).
 */
export function resolveRoute(settings: GuildSettings, event: string): Route | null {
  const channelId = settings.routes[event] ?? settings.defaultChannelId;
  if (!channelId) return null;
  const mentionRoleId = settings.mentions[event];
  return mentionRoleId ? { channelId, mentionRoleId } : { channelId };
}
