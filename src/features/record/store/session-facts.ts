/** A session of the community record, as far as it was told. */
export interface RecordedSession {
  server: string;
  sessionId: number;
  name: string | null;
  startedAt: number;
  /** null while it runs (or while its end was not told). */
  endedAt: number | null;
  peakPlayers: number | null;
  joins: number | null;
}

/** A case made while a session ran. */
export interface SessionCase {
  at: number;
  number: number;
  type: string | null;
  targetName: string | null;
  moderatorId: string | null;
  moderatorName: string | null;
  voided: boolean;
}

/** A modcall card whose calls came while a session ran, and how it was answered (once, however many calls). */
export interface SessionModcall {
  /** Its first call within the session. */
  at: number;
  /** Its card's first call, which the time to its claim counts from (before the session when the card was). */
  calledAt: number;
  /** Its calls within the session. */
  calls: number;
  callerName: string | null;
  claimedBy: string | null;
  claimedAt: number | null;
  resolvedAt: number | null;
}

/** A shift that overlapped a session: begun before it or during it, ended during it, after it, or not yet. */
export interface SessionShift {
  shiftId: number;
  memberId: string | null;
  memberName: string | null;
  startedAt: number;
  endedAt: number | null;
}

/**
 * What the record knows of one session and what happened on its game server while it ran (up to its end, or up to
 * now): its cases and modcall cards in time order, and the shifts that overlapped it. A session thread's log and its
 * after-action report are drawn from it.
 */
export interface SessionFacts {
  session: RecordedSession;
  cases: SessionCase[];
  modcalls: SessionModcall[];
  shifts: SessionShift[];
}

/** The record's answers about one session. */
export interface SessionRecord {
  /**
   * The session and what happened on its server from its start to its end (or to `until` while it runs), at most
   * `limit` of each of cases, modcall cards and shifts (the earliest); undefined when the record has no start for it.
   */
  sessionFacts(
    guildId: string,
    server: string,
    sessionId: number,
    until: number,
    limit: number,
  ): Promise<SessionFacts | undefined>;
}
