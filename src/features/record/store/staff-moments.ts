import type { TimeRange } from './record-queries.js';

/** A case as the record holds it now, for judging what staff did: `createdAt` null until its case.created came. */
export interface MomentCase {
  server: string;
  number: number;
  /** When it was made (or, until its case.created came, when it was voided). */
  at: number;
  createdAt: number | null;
  type: string | null;
  targetId: string | null;
  targetName: string | null;
  moderatorId: string | null;
  moderatorName: string | null;
  voidedAt: number | null;
  voidedBy: string | null;
}

/** A shift as the record holds it now: `at` is its start (or, until its start came, its end less its length). */
export interface MomentShift {
  server: string;
  shiftId: number;
  at: number;
  endedAt: number | null;
  memberId: string | null;
  memberName: string | null;
  robloxId: string | null;
}

/** The spans a case's moment is read with. */
export interface MomentSpans {
  /** A shift covers a moment from its start up to its end, and at most this long after its start. */
  shiftCoversMs: number;
  /** A server uses shifts at a moment when a shift began within this before it. */
  shiftsInUseMs: number;
}

/**
 * What of a case's moment to read besides the case: each part reads the guild's shifts, so a reader asks only for
 * what it uses (the conduct guard: what its rules that are on judge by). A part not asked for is null.
 */
export interface MomentReads {
  moderatorOnShift: boolean;
  /** The staff on shift, read for a case of this type only (null: for none). */
  staffOnShiftForType: string | null;
  shiftsInUse: boolean;
  targetStaffSince: boolean;
}

/** What the record held, as it stands now, about a case's moment (its `at`): the shifts around it. */
export interface CaseMoment {
  case: MomentCase;
  /** A shift of the moderator covered the moment. */
  moderatorOnShift: boolean | null;
  /** How many members had a shift covering the moment: 0, 1, or 2 for two or more. */
  staffOnShift: number | null;
  /** A shift of the guild began within {@link MomentSpans.shiftsInUseMs} before the moment. */
  shiftsInUse: boolean | null;
  /** When the target's Roblox id first clocked in as staff; null if it never did (or not asked). */
  targetStaffSince: number | null;
}

/**
 * The community record read as of a moment, for judging what staff did then (the conduct guard): who was on shift
 * at a case's minute, whether its target had clocked in as staff, what else its moderator did around it. Each read
 * goes by one of the guild's indexes and returns the rows of a few minutes or hours, never a guild's year.
 */
export interface StaffMoments {
  /**
   * The case and the parts of its moment asked for; undefined when the record has no such case (forgotten, or past
   * its retention).
   */
  caseMoment(
    guildId: string,
    server: string,
    number: number,
    spans: MomentSpans,
    reads: MomentReads,
  ): Promise<CaseMoment | undefined>;
  shiftOf(guildId: string, server: string, shiftId: number): Promise<MomentShift | undefined>;
  /** The moderator's cases made in the range (their case.created merged), of `types` if given, by time. */
  casesBy(
    guildId: string,
    moderatorId: string,
    range: TimeRange,
    types?: readonly [string, string],
  ): Promise<MomentCase[]>;
  /** The cases voided by `voidedBy` in the range, by void time. */
  voidsBy(guildId: string, voidedBy: string, range: TimeRange): Promise<MomentCase[]>;
  /** The cases made against a player in the range, by time. */
  casesAgainst(guildId: string, targetId: string, range: TimeRange): Promise<MomentCase[]>;
  /** The first `limit` cases of the guild made in the range (of `type` if given), by time, then server and number. */
  casesMadeIn(guildId: string, range: TimeRange, limit: number, type?: string): Promise<MomentCase[]>;
  /** The shifts begun in the range (of one member if given), by start. */
  shiftsBegunIn(guildId: string, range: TimeRange, memberId?: string): Promise<MomentShift[]>;
  /** The latest start strictly before `at` of a shift other than `other`, within `spanMs` before it; null if none. */
  shiftStartBefore(
    guildId: string,
    at: number,
    other: { server: string; shiftId: number },
    spanMs: number,
  ): Promise<number | null>;
  /** When the Roblox id first clocked in as staff, or null if it never did. */
  firstClockIn(guildId: string, robloxId: string): Promise<number | null>;
}
