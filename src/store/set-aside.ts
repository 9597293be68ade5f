import { backoffDelay, type BackoffPolicy } from '../base/backoff.js';
import { withoutRowValues } from '../base/row-values.js';
import { truncateText } from '../base/truncate-text.js';

/**
 * The batch jobs that set items aside, and how long each waits before it tries an item again: the record's writer
 * (an item is a delivery it could not merge into the community record; it runs every second) and the record's
 * retention sweep (an item is a guild whose old rows it could not delete; it runs every hour).
 */
export const SET_ASIDE_JOBS = {
  'record-writer': { baseMs: 60_000, capMs: 60 * 60_000 },
  'record-sweep': { baseMs: 60 * 60_000, capMs: 24 * 60 * 60_000 },
} as const satisfies Record<string, BackoffPolicy>;
export type SetAsideJob = keyof typeof SET_ASIDE_JOBS;
export const SET_ASIDE_JOB_NAMES = Object.keys(SET_ASIDE_JOBS) as SetAsideJob[];

/**
 * How long a delivery set aside by the record's writer is kept for another try: 30 days after it was first set
 * aside (as long as a held delivery), it is given up, left out of the record, its body dropped once it is posted.
 */
export const SET_ASIDE_KEPT_DAYS = 30;
export const SET_ASIDE_KEPT_MS = SET_ASIDE_KEPT_DAYS * 24 * 60 * 60 * 1000;

/** The longest reason kept: an error's first line is what tells why. */
const MAX_REASON = 300;

/**
 * An item set aside: one a batch job could not do on its own, while the rest of its batch went on. It is kept
 * in the store (it survives a restart; every process sees it), shown in /status and counted in /metrics, and left
 * out of the job's passes until `retryAt`, each failed try pushing that further (capped exponential backoff).
 */
export interface SetAsideItem {
  job: SetAsideJob;
  /** What the job calls the item: a delivery's place in the store (its seq), a guild id. */
  item: string;
  /** The guild it belongs to, if any. */
  guildId: string | null;
  /** What /status calls it (an event and its delivery id, a guild's record), never what a delivery said. */
  label: string;
  /** The latest failure's message. */
  reason: string;
  /** Tries that failed. */
  attempts: number;
  /** When it was first set aside. */
  since: number;
  /** When the job tries it next. */
  retryAt: number;
}

/** What the host and /status read of the items set aside, and what retries them at once. */
export interface SetAsideStore {
  /** The guild's items set aside, the longest set aside first, at most `limit`. */
  listForGuild(guildId: string, limit: number): Promise<SetAsideItem[]>;
  /** Every guild's items set aside (and those of none), the longest set aside first, at most `limit`. */
  list(limit: number): Promise<SetAsideItem[]>;
  /** How many items each job has set aside now, every job named (0 for none). */
  countByJob(): Promise<Record<SetAsideJob, number>>;
  /**
   * Makes every item set aside (of `job` only, if given) due at `now`: the record's writer tries its deliveries
   * within a second, the retention sweep its guilds at its next hourly run. How many items.
   */
  retryNow(now: number, job?: SetAsideJob): Promise<number>;
}

/** When an item that failed `attempts` times in all is tried next, after failing at `now`. */
export function nextTryAt(job: SetAsideJob, attempts: number, now: number, random: () => number = Math.random): number {
  return now + backoffDelay(attempts, SET_ASIDE_JOBS[job], random);
}

/**
 * What is kept of a failure: its message's first line, without control characters or a value the database quoted
 * (row-values.ts), cut to a line of /status.
 */
export function reasonOf(error: unknown): string {
  const message = withoutRowValues(error instanceof Error ? error.message : String(error));
  // eslint-disable-next-line no-control-regex -- a line ends at the first control character of any kind
  const line = message.split(/[\u0000-\u001f]/)[0]?.trim() || 'failed without a message';
  return truncateText(line, MAX_REASON);
}
