import type { RunningSession } from '../record/index.js';
import type { CoverageMinimum } from './store/duty-store.js';

/** The /duty minimum's bounds: at least 1 and at most 50 staff; a shortfall may last 0 to 240 minutes. */
export const MIN_STAFF_LIMITS = { least: 1, most: 50 } as const;
export const AFTER_MINUTES_LIMITS = { least: 0, most: 240 } as const;
/** How long a shortfall may last before it is an alert, when /duty minimum is given no `after`. */
export const DEFAULT_AFTER_MINUTES = 10;
/**
 * How long a session may run before the guard stops counting it: a day, longer than any real session. A session
 * whose session.ended never came (the game server crashed, the delivery was lost for good) would otherwise keep
 * its alert open for ever, as a never-ended shift would keep its member on the board.
 */
export const SESSION_NEVER_ENDED_AFTER_MS = 24 * 60 * 60 * 1000;
/** A minute: tests shorten it, so a wait of `after` minutes passes in moments. */
export const MINUTE_MS = 60_000;

/** What the guard knows of a guild at one moment. */
export interface CoverageFacts {
  minimum: CoverageMinimum;
  /** The guild's sessions with a start and no end (those open over a day are not counted). */
  sessions: readonly RunningSession[];
  /** The staff on shift now: one per member, shifts open past the "never ended" limit left out (as the board). */
  onShift: number;
  /** Since when the guild has been short, as last noted; null: it was covered. */
  uncoveredSince: number | null;
  now: number;
  /** The length of a minute (MINUTE_MS outside tests). */
  minuteMs?: number;
}

/**
 * The guard's verdict: `covered` (no session runs, or enough staff are on shift), `short` (fewer than the minimum,
 * for less than `after` minutes so far: an alert is due at `alertAt` if nothing changes), or `alert` (short for
 * `after` minutes or more).
 */
export type CoverageVerdict =
  { state: 'covered' } | { state: 'short'; since: number; alertAt: number } | { state: 'alert'; since: number };

/**
 * Whether a guild is covered: while a session runs, at least `minimum.staff` staff must be on shift; a guild short
 * of that is short since it was first found short (`uncoveredSince`, or now), and is an alert once it has been
 * short for `minimum.afterMinutes` minutes (at once with 0).
 */
export function judgeCoverage(facts: CoverageFacts): CoverageVerdict {
  const running = countedSessions(facts.sessions, facts.now);
  if (running.length === 0 || facts.onShift >= facts.minimum.staff) return { state: 'covered' };
  const since = facts.uncoveredSince ?? facts.now;
  const alertAt = since + facts.minimum.afterMinutes * (facts.minuteMs ?? MINUTE_MS);
  return facts.now >= alertAt ? { state: 'alert', since } : { state: 'short', since, alertAt };
}

/** The running sessions the guard counts at `now`: those begun less than a day ago. */
export function countedSessions(sessions: readonly RunningSession[], now: number): RunningSession[] {
  return sessions.filter((session) => now - session.startedAt <= SESSION_NEVER_ENDED_AFTER_MS);
}
