/** What the store forgot of a guild the bot was removed from. */
export interface ForgottenGuild {
  /** Registered webhooks: their addresses answer 404 from the commit on. */
  hooks: number;
  /** Server keys deleted: 1 or 0 (the guild's settings go with it; named so no log redacts the count). */
  serverKeys: number;
  /** Deliveries that were waiting or held: their bodies are dropped, nothing of them is posted. */
  openDeliveries: number;
  /** The guild's documents of every kind (developer key and watches, alerts, cards, incidents). */
  documents: number;
  /** Rows of its community record: cases, shifts, sessions, modcalls and the players they name. */
  recordRows: number;
  /** Its on-duty board and on-shift role settings: 1 or 0. */
  dutySettings: number;
  /** The members noted as holding a role the bot gave them for a shift (their roles went with the guild). */
  dutyRoleHolders: number;
}

/** The store's side of leaving a guild. */
export interface GuildForgetting {
  /**
   * Forgets everything kept for the guild, in one transaction: its hooks (and their activity), its settings
   * with the server key, every delivery of its hooks (waiting, held, or remembered as posted: the hooks are
   * gone, so the service's retries are refused as unknown anyway), its channels' state, and its documents (see
   * DocumentStore for which are a guild's), its community record and its duty settings and role holders. Admin actions (the audit log) stay until their own sweep. Every
   * process's caches drop the hooks and settings at the commit. Forgetting a guild the store has nothing of
   * changes nothing.
   */
  forgetGuild(guildId: string): Promise<ForgottenGuild>;
  /**
   * The guilds the store keeps webhooks, settings, a community record, a digest or quotas, or duty settings for
   * (a forgotten guild is not one of them): after the bot was down, those it is no longer in are forgotten
   * (src/guilds-left-while-down.ts). Read once per start, not on a timer.
   */
  knownGuilds(): Promise<string[]>;
}

/**
 * The tables besides hooks and settings that keep something per guild and that forgetGuild empties, as UNIONs for
 * knownGuilds: a guild whose webhooks were removed can still have its community record, its digest and quotas,
 * its duty board or role, and must be found when the bot is no longer in it.
 */
export const KEPT_ELSEWHERE = ['record_guild', 'duty_quota', 'digest_schedule', 'duty_guild', 'duty_role_holder']
  .map((table) => `UNION SELECT guild_id FROM ${table}`)
  .join(' ');
