import type { CaseTypeCount, RecordedCase, RecordedPlayer } from './community-record.js';

/** A span of time, from `from` (included) to `to` (excluded), in ms since the epoch. */
export interface TimeRange {
  from: number;
  to: number;
}

/** A player's earlier cases: per type, and when the latest was made (undefined: none). */
export interface EarlierCases {
  byType: Array<{ type: string; count: number }>;
  lastAt: number | undefined;
}

/** A member's shifts that began in a range: how many, and their length in all (running ones not counted). */
export interface ShiftTotals {
  count: number;
  seconds: number;
}

/**
 * Modcalls that came in a range and how they were answered (by one member, when asked for one). A card gathers a
 * caller's repeated calls and is claimed and resolved once: `claimed`, `resolved` and the times (from the card's
 * first call to its claim and to its resolution, each list sorted, for medians and percentiles) count cards, once
 * each, in the range of the card's first call; `calls` counts every call.
 */
export interface ModcallTimes {
  calls: number;
  /** The cards their calls were gathered on (a call no card named is a card of its own). */
  cards: number;
  claimed: number;
  resolved: number;
  toClaimMs: number[];
  toResolveMs: number[];
}

/** The guild's modcalls in a range, and each member's claims among them (cards; most claims first). */
export interface ModcallResponse extends ModcallTimes {
  byMember: Array<{ memberId: string; claimed: number; toClaimMs: number[] }>;
}

/** What a leaderboard ranks. */
export type Board = 'shifts' | 'cases' | 'modcalls';

/** One member on a leaderboard: seconds on shift, cases made (not voided), or modcall cards claimed. */
export interface Standing {
  memberId: string;
  /** The name the service last gave the member, where it gives one (shifts, cases). */
  name: string | null;
  value: number;
}

/** A shift that began and has not ended (as far as the record was told). */
export interface OpenShift {
  server: string;
  shiftId: number;
  /** The member's Discord id, where the service gave it. */
  memberId: string | null;
  memberName: string | null;
  /** When it began: its start, or (not told yet) when the delivery that told of it was sent. */
  startedAt: number;
}

/** A session that began and has not ended (as far as the record was told). */
export interface RunningSession {
  server: string;
  sessionId: number;
  name: string | null;
  startedAt: number;
}

/** The guild's activity of a range, row by row (RecordQueries.activityIn). */
export interface RangeActivity {
  shifts: Array<{ memberId: string; startedAt: number; endedAt: number | null; seconds: number | null }>;
  cases: Array<{ memberId: string; at: number }>;
  cards: Array<{ at: number; claimedBy: string | null; claimedAt: number | null }>;
}

/** What the community record answers: lookups, a member's statistics, leaderboards. */
export interface RecordQueries {
  /** The player's cases, newest first, a page of them. */
  casesOf(guildId: string, playerId: string, page: { limit: number; offset: number }): Promise<RecordedCase[]>;
  /** The player's cases counted per type (most first), voided ones too. */
  caseTotals(guildId: string, playerId: string): Promise<CaseTypeCount[]>;
  /** Players whose latest name starts with `prefix` (any case), by name; for autocomplete. */
  findPlayers(guildId: string, prefix: string, limit: number): Promise<RecordedPlayer[]>;
  /** The player of this id, or else the one whose latest name is `name` (any case). */
  findPlayer(guildId: string, idOrName: string): Promise<RecordedPlayer | undefined>;
  /**
   * The player's cases made before `before` and not voided, per type (most first), with the latest one's time:
   * what a new case's card says of the player's past.
   */
  earlierCases(guildId: string, playerId: string, before: number): Promise<EarlierCases>;
  /** The cases a moderator made in the range, per type (most first). */
  staffCases(guildId: string, memberId: string, range: TimeRange): Promise<CaseTypeCount[]>;
  shiftTotals(guildId: string, memberId: string, range: TimeRange): Promise<ShiftTotals>;
  /** The guild's modcalls in the range, and who claimed them. */
  modcallResponse(guildId: string, range: TimeRange): Promise<ModcallResponse>;
  /** The modcall cards of the range one member claimed or resolved (and their calls). */
  memberModcalls(guildId: string, memberId: string, range: TimeRange): Promise<ModcallTimes>;
  /** The guild's shifts with a start and no end, oldest first (ties by server and shift id). */
  openShifts(guildId: string): Promise<OpenShift[]>;
  /** The guild's sessions with a start and no end, oldest first (ties by server and session id). */
  runningSessions(guildId: string): Promise<RunningSession[]>;
  /**
   * The members (Discord ids) with a shift that began at or after `startedFrom` and has ended at or after
   * `endedFrom`: whose on-duty role may be left to take back. Over the guild's time index, from `startedFrom` on.
   */
  membersOffShift(guildId: string, startedFrom: number, endedFrom: number): Promise<string[]>;
  /** Every member with something to rank in the range, highest first (ties by member id). */
  leaderboard(guildId: string, board: Board, range: TimeRange): Promise<Standing[]>;
  /**
   * The guild's activity of the range, row by row: the shifts that began in it (a running one without its end),
   * the cases made and the modcall cards called (one row a card, with its claim), for /staff activity.
   */
  activityIn(guildId: string, range: TimeRange): Promise<RangeActivity>;
  /**
   * A member's seconds on shift per UTC day in the range, a shift counted on the day it began (running ones
   * count 0 s); days without a shift left out; by day.
   */
  shiftDays(guildId: string, memberId: string, range: TimeRange): Promise<DaySeconds[]>;
  /** The guild's cases made in the range, per type (most first). */
  guildCases(guildId: string, range: TimeRange): Promise<CaseTypeCount[]>;
  /**
   * The guild's sessions begun in the range: how many, how long the ended ones ran in all, the most players. A session
   * whose start the record was not told yet (its end came first) is in no range.
   */
  sessionTotals(guildId: string, range: TimeRange): Promise<SessionTotals>;
  /**
   * Per day of `timeZone` with anything on it in the range (by day; `day` is the date as its midnight in UTC, see
   * wallDate): seconds on shift (shifts counted on the day they began), cases made and modcalls received,
   * guild-wide.
   */
  guildDays(guildId: string, range: TimeRange, timeZone: string): Promise<GuildDay[]>;
  /**
   * One member's figures per UTC month of the range (months with nothing left out; oldest first): shifts begun and
   * their seconds, cases made that stand, modcall cards claimed (in the month of their first call) and the median
   * time to claim them. Over the member's own indexes: /staff history.
   */
  memberMonths(guildId: string, memberId: string, range: TimeRange): Promise<MemberMonth[]>;
}

/**
 * A month of one member's record (`month`: its first midnight in UTC, ms since the epoch). `medianToClaimMs` is the
 * lower median of the month's claims' times (null: no claim), as {@link percentile}'s 0.5 reads it.
 */
export interface MemberMonth {
  month: number;
  shifts: number;
  seconds: number;
  cases: number;
  claims: number;
  medianToClaimMs: number | null;
}

/** The sessions of a period; `seconds` of the ended ones, `peakPlayers` null when none said. */
export interface SessionTotals {
  sessions: number;
  seconds: number;
  peakPlayers: number | null;
}

/**
 * One day of a guild's record: its date (as its midnight in UTC: wallDate in src/base/time-zone.ts), the seconds on
 * shift begun on it, its cases and modcalls.
 */
export interface GuildDay {
  day: number;
  shiftSeconds: number;
  cases: number;
  modcalls: number;
}

/** A UTC day (its midnight, in ms since the epoch) and the seconds on shift of the shifts that began on it. */
export interface DaySeconds {
  day: number;
  seconds: number;
}
