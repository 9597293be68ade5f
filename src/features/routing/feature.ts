import type { GuildSettingsStore } from '../../store/guild-settings.js';
import type { BotParts, Feature } from '../feature.js';

/** What /feed set, off, clear, default, mention and show use. */
export interface RoutingDeps {
  /** Each guild's routing rules, default channel and mentions (a change re-routes what waits, in the store). */
  guilds: GuildSettingsStore;
}

/** The guild's routing rules: which event (of which game server, of which case type) goes to which channel. */
export function createRoutingFeature(parts: BotParts): Feature<RoutingDeps> {
  return { deps: { guilds: parts.store.guilds } };
}
