import type { EvidenceRecord } from './case-evidence.js';
import type { RecordExport } from './record-export.js';
import type { WritesWithMerges } from './record-merge.js';
import type { RecordQueries } from './record-queries.js';
import type { SessionRecord } from './session-facts.js';

/** How long a guild's record is kept when its admins have not said (`/record retention`). */
export const DEFAULT_RECORD_RETENTION_DAYS = 400;
/** The longest retention an admin may set: ten years. */
export const MAX_RECORD_RETENTION_DAYS = 3650;

/** A modcall claimed or resolved, by whom and when (absent: not that, or not yet). */
export interface ModcallHandling {
  claimedBy?: string;
  claimedAt?: number;
  resolvedBy?: string;
  resolvedAt?: number;
}

/** What one pass of {@link CommunityRecord.recordPending} (or {@link CommunityRecord.retrySetAside}) did. */
export interface RecordingPass {
  recorded: number;
  skipped: number;
  /** Deliveries whose merge failed on its own, set aside (again) until their next try (set-aside.ts). */
  setAside: number;
  /** Deliveries set aside longer than their retention (SET_ASIDE_KEPT_DAYS) that failed again: left out for good. */
  givenUp: number;
  /** The guilds for which anything was merged. */
  guilds: string[];
  /** The guilds for which a shift update was merged: who is on shift there may have changed. */
  shiftGuilds: string[];
  /** The guilds for which a session update was merged: whether a session runs there may have changed. */
  sessionGuilds: string[];
}

/** A guild's choices about its record. */
export interface RecordSettings {
  /** {@link DEFAULT_RECORD_RETENTION_DAYS} unless an admin set it. */
  retentionDays: number;
  /** The role whose members may read the record besides admins; null for none. */
  staffRoleId: string | null;
}

/** One case as the record holds it: what its deliveries told, merged (absent: no delivery told it yet). */
export interface RecordedCase {
  server: string;
  number: number;
  /** When it was made (or, until its case.created arrives, when it was voided). */
  at: number;
  type?: string;
  targetId?: string;
  targetName?: string;
  moderatorId?: string;
  moderatorName?: string;
  reason?: string;
  voidedAt?: number;
  voidedBy?: string;
}

/** A player's cases of one type, and how many of them were voided. */
export interface CaseTypeCount {
  type: string;
  count: number;
  voided: number;
}

/** A player the record's cases name, with the latest name the id was seen with. */
export interface RecordedPlayer {
  playerId: string;
  name: string;
}

/**
 * The community record: every case, shift, session and modcall of a guild, merged from the deliveries that tell
 * of them (migrations/0001-tables.ts), kept for the guild's retention. The intake stores each such delivery unrecorded;
 * {@link CommunityRecord.recordPending} reads and merges them later, off the intake's path. Merging the same
 * delivery twice changes nothing, so a writer stopped half way loses nothing and doubles nothing.
 */
export interface CommunityRecord extends RecordQueries, RecordExport, SessionRecord, EvidenceRecord {
  /**
   * Merges what up to `limit` unrecorded deliveries tell, oldest first, then marks them recorded; returns how
   * many. One whose body tells nothing usable is marked and counted in `skipped`, so it never stops the rest. One
   * whose merge fails on its own (the rest merge without it) is set aside: left out of the next passes until its
   * next try ({@link retrySetAside}), its body kept. A store that fails as a whole fails the pass, nothing set aside.
   * `withMerges` adds another feature's statements to the merges' transaction (record-merge.ts).
   */
  recordPending(limit: number, withMerges?: WritesWithMerges): Promise<RecordingPass>;
  /**
   * Merges, each on its own, up to `limit` deliveries set aside whose next try is due: one that merges is recorded
   * and no longer set aside; one that fails again waits longer, or is given up once past its retention.
   */
  retrySetAside(limit: number, withMerges?: WritesWithMerges): Promise<RecordingPass>;
  /**
   * What a modcall's card says of its calls (one card gathers a caller's repeated calls), in any order: that they
   * are one card's (named by the earliest), who claimed and resolved it, when. The card's claim and resolution
   * count once however many calls it has, in the period of its earliest call. The first claim and resolution stand;
   * a call not merged yet is recorded with it.
   */
  noteModcallHandled(
    guildId: string,
    server: string,
    calls: ReadonlyArray<{ callerId: string; at: number; callerName: string }>,
    handled: ModcallHandling,
  ): Promise<void>;
  /**
   * When the oldest delivery the writer has not merged yet was received; undefined when none waits. Normally a
   * second or two ago; older, the writer is not running (no process holds the gateway) or cannot keep up.
   */
  oldestUnrecordedAt(): Promise<number | undefined>;
  /** Who may read the guild's record besides admins, and how long it is kept. */
  settingsOf(guildId: string): Promise<RecordSettings>;
  setRetentionDays(guildId: string, days: number): Promise<void>;
  /** Null: only members with Manage Server read the record. */
  setStaffRole(guildId: string, roleId: string | null): Promise<void>;
  /**
   * Deletes what is past each guild's retention at `now`, each guild's oldest first, in bounded slices. A guild
   * whose deletes fail on their own is set aside until its next try; the other guilds are swept.
   */
  sweep(now: number): Promise<number>;
}

/**
 * The community record's tables by their key's columns, in the order migrate-store copies them (the guilds'
 * settings first) and forgetting a guild deletes their rows.
 */
export const RECORD_TABLE_KEYS = {
  record_guild: ['guild_id'],
  record_case: ['guild_id', 'server', 'number'],
  record_player: ['guild_id', 'player_id'],
  record_shift: ['guild_id', 'server', 'shift_id'],
  record_session: ['guild_id', 'server', 'session_id'],
  record_modcall: ['guild_id', 'server', 'caller_id', 'at'],
} as const satisfies Readonly<Record<string, readonly string[]>>;
