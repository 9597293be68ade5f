import type { RecordedCase } from './community-record.js';

/** A case as its evidence pack shows it: what a lookup shows, when it was made, and its evidence as given. */
export interface EvidenceCase extends RecordedCase {
  /** When its case.created says it was made; absent while only its case.voided reached the record. */
  createdAt?: number;
  /** Its evidence as the service gave it, JSON text (record-update.ts's evidenceTextOf); absent: none told. */
  evidence?: string;
}

/**
 * The player's modcall card on the case's game server shortly before it (its calls in that span), and how the card
 * was answered: who claimed it and when, who resolved it and when.
 */
export interface EvidenceModcall {
  /** Its first call in the span. */
  at: number;
  /** Its calls in the span (a repeated call joins its card). */
  calls: number;
  callerName: string | null;
  claimedBy: string | null;
  claimedAt: number | null;
  resolvedBy: string | null;
  resolvedAt: number | null;
}

/** A shift as the pack shows it: whose, on which game server, from when to when (null: not ended, as far as told). */
export interface EvidenceShift {
  server: string;
  shiftId: number;
  memberId: string | null;
  memberName: string | null;
  startedAt: number;
  endedAt: number | null;
}

/** The session running on the case's game server when it was made. */
export interface EvidenceSession {
  sessionId: number;
  name: string | null;
  startedById: string | null;
  startedByName: string | null;
  startedAt: number;
  endedAt: number | null;
  peakPlayers: number | null;
}

/**
 * Everything the record knows around one case, joined by its moment (`case.at`) and its game server: the case and
 * its void, the player's modcalls on that server in the minutes before it, who was on shift then (the moderator among them or
 * not, and if not, their latest shift), the session running, and the player's earlier cases.
 */
export interface CaseEvidence {
  case: EvidenceCase;
  /**
   * The player's modcalls on the case's game server from {@link EVIDENCE_MODCALL_SPAN_MS} before the case to its
   * moment, a card each, oldest first.
   */
  modcalls: EvidenceModcall[];
  /** True when there were more than those shown. */
  moreModcalls: boolean;
  /** Every shift on at the case's moment (any game server), oldest first. */
  onShift: EvidenceShift[];
  moreOnShift: boolean;
  /** The moderator's latest shift begun by the case's moment (undefined: none recorded, or no moderator told). */
  moderatorLastShift: EvidenceShift | undefined;
  session: EvidenceSession | undefined;
  /** The player's cases before this one, newest first (voided ones too), up to {@link EARLIER_CASES_SHOWN}. */
  earlierCases: EvidenceCase[];
  /** The player's cases before this one not voided, per type (most first). */
  earlierByType: Array<{ type: string; count: number }>;
}

/** What a lookup by number found: the case, several game servers' cases of that number, or none. */
export type EvidenceLookup =
  { kind: 'found'; evidence: CaseEvidence } | { kind: 'several'; servers: string[] } | { kind: 'none' };

/** How long before a case its game server's modcalls are shown: the call that brought the moderator. */
export const EVIDENCE_MODCALL_SPAN_MS = 15 * 60_000;
/** The player's modcall cards shown at most; beyond them the pack says there were more. */
export const EVIDENCE_MODCALLS_SHOWN = 20;
/** The shifts on at the case's moment shown at most. */
export const EVIDENCE_SHIFTS_SHOWN = 25;
/** The player's earlier cases listed at most. */
export const EARLIER_CASES_SHOWN = 10;
/** The game servers named at most when several have a case of the number asked. */
export const NUMBERED_SERVERS_SHOWN = 10;
/**
 * A session begun longer ago than this before the case is not read as running then: the duty feature's coverage
 * takes a session open a day as never ended (SESSION_NEVER_ENDED_AFTER_MS), and the bound keeps the read on the
 * guild's time index.
 */
export const EVIDENCE_SESSION_LOOKBACK_MS = 24 * 60 * 60 * 1000;

/** The record's evidence packs: /case evidence. */
export interface EvidenceRecord {
  /**
   * The evidence pack of the guild's case `number` (of game server `server`, when given; else of the one server
   * with a case of that number).
   */
  caseEvidence(guildId: string, number: number, server?: string): Promise<EvidenceLookup>;
}
