import type { StoreModule } from './store-module.js';

/**
 * What the store forgot of a guild the bot was removed from: the kernel's counts, and each module's rows by what
 * it counts them under (the community record's `recordRows`, the duty feature's `dutySettings` and
 * `dutyRoleHolders`, the digest's `digestRows`).
 */
export interface ForgottenGuild {
  /** Registered webhooks: their addresses answer 404 from the commit on. */
  hooks: number;
  /** Server keys deleted: 1 or 0 (the guild's settings go with it; named so no log redacts the count). */
  serverKeys: number;
  /** Deliveries that were waiting or held: their bodies are dropped, nothing of them is posted. */
  openDeliveries: number;
  /** The guild's documents of every kind (developer key and watches, alerts, cards, incidents). */
  documents: number;
  readonly [counted: string]: number;
}

/** The store's side of leaving a guild. */
export interface GuildForgetting {
  /**
   * Forgets everything kept for the guild, in one transaction: its hooks (and their activity), its settings
   * with the server key, every delivery of its hooks (waiting, held, or remembered as posted: the hooks are
   * gone, so the service's retries are refused as unknown anyway), its channels' state, its documents (see
   * DocumentStore for which are a guild's), its items set aside, and what each store module deletes of it (the
   * community record, the duty settings and role holders, the quotas and digests). Admin actions (the audit log)
   * stay until their own sweep. Every process's caches drop the hooks and settings at the commit. Forgetting a
   * guild the store has nothing of changes nothing.
   */
  forgetGuild(guildId: string): Promise<ForgottenGuild>;
  /**
   * The guilds the store keeps webhooks, settings, or anything of a module for (a community record, a digest or
   * quotas, duty settings; a forgotten guild is not one of them): after the bot was down, those it is no longer in
   * are forgotten (src/guilds-left-while-down.ts). Read once per start, not on a timer.
   */
  knownGuilds(): Promise<string[]>;
}

/**
 * The modules' tables that keep something per guild, as UNIONs after the kernel's own (hooks, settings) for
 * knownGuilds: a guild whose webhooks were removed can still have its community record, its digest and quotas,
 * its duty board or role, and must be found when the bot is no longer in it.
 */
export function keptByModules(modules: readonly StoreModule[]): string {
  return modules
    .flatMap((module) => module.keptGuilds)
    .map((select) => ` UNION ${select}`)
    .join('');
}

/** Adds what a module's statement deleted to the count it names. */
export function countForgotten(counts: Record<string, number>, counted: string | undefined, rows: number): void {
  if (counted !== undefined) counts[counted] = (counts[counted] ?? 0) + rows;
}
