import type { AppDetail, AppSummary } from '../../upstream/developer-schemas.js';
import type { PollIntervals } from './release-poller.js';

/** What the poller remembers about one watched app between cycles (memory only: a restart re-reads all). */
interface AppPollState {
  nextDetailAt: number;
  fingerprint: string;
}

/**
 * When each watched app's versions are read (GET /apps/:id): every minute while a version waits for review or a
 * card still owes a change, every 15 minutes otherwise, at once when its entry in GET /apps changed or someone
 * asked for it (a submission, a withdrawal).
 */
export class AppSchedule {
  private readonly apps = new Map<string, AppPollState>();
  private readonly forced = new Set<string>();

  constructor(private readonly intervals: PollIntervals) {}

  /** Makes an app's versions due now. */
  force(guildId: string, appId: string): void {
    this.forced.add(stateKey(guildId, appId));
  }

  /** True when an app of the guild was made due now (the guild is polled before its time). */
  hasForced(guildId: string): boolean {
    const prefix = stateKey(guildId, '');
    return [...this.forced].some((key) => key.startsWith(prefix));
  }

  /** True when the app's versions should be read in this poll. */
  isDue(guildId: string, summary: AppSummary, now: number): boolean {
    const key = stateKey(guildId, summary.id);
    const state = this.apps.get(key);
    if (!state || this.forced.has(key)) return true;
    return state.fingerprint !== summary.fingerprint || now >= state.nextDetailAt;
  }

  /** The app's versions were read (and its cards `followed`, or not): when they are read next. */
  noteRead(guildId: string, summary: AppSummary, detail: AppDetail, followed: boolean, now: number): void {
    const key = stateKey(guildId, summary.id);
    const waiting = detail.versions.some((version) => version.pending) || summary.pending !== undefined;
    const every = waiting || !followed ? this.intervals.pendingEveryMs : this.intervals.idleEveryMs;
    this.apps.set(key, { nextDetailAt: now + every, fingerprint: summary.fingerprint });
    this.forced.delete(key);
  }
}

function stateKey(guildId: string, appId: string): string {
  return `${guildId}:${appId}`;
}
