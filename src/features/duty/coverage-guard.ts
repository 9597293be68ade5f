import { backoffDelay, type BackoffPolicy } from '../../base/backoff.js';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { Repeating } from '../../base/repeating.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { Job } from '../feature.js';
import type { LeaveView } from '../leave/index.js';
import type { RecordQueries, RunningSession } from '../record/index.js';
import { splitOpenShifts } from './board-render.js';
import { countedSessions, judgeCoverage, MINUTE_MS } from './coverage.js';
import type { CoverageMinimum, DutyStore } from './store/duty-store.js';

/** After a failed look (the store down): when the guild is looked at again, doubling with each failure in a row. */
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 30_000, capMs: 10 * 60 * 1000 };
/**
 * The guilds with a running session are looked at again this often without a change: a shift that passes the
 * "never ended" limit leaves the count with no event to say so.
 */
const REFRESH_EVERY_MS = 10 * 60 * 1000;

/** A guild short of staff for longer than its /duty minimum allows: what its alert says. */
export interface CoverageShortfall {
  minimum: CoverageMinimum;
  /** The staff on shift now. */
  onShift: number;
  /** Since when fewer than the minimum have been on shift while a session ran. */
  since: number;
  sessions: RunningSession[];
  /** The staff on approved leave of absence now (/leave): what explains a shortfall, in the alert's words. */
  onLeave?: readonly string[];
}

export interface CoverageGuardDeps {
  duty: Pick<DutyStore, 'coverageOf' | 'listGuarded' | 'setUncoveredSince'>;
  record: Pick<RecordQueries, 'openShifts' | 'runningSessions'>;
  /** Who is on approved leave now; none: nobody. */
  leave?: Pick<LeaveView, 'onLeaveAt'> | undefined;
  /**
   * Told of each guild looked at: its shortfall (an alert, opened or brought up to date), or null (covered, not
   * short for long enough yet, or no minimum: an alert open is resolved). Awaited before the guild's next look.
   */
  report(guildId: string, shortfall: CoverageShortfall | null): Promise<void>;
  timers: Timers;
  clock: Clock;
  logger: Logger;
  /** The length of a minute (tests shorten it). */
  minuteMs?: number | undefined;
  /** How long a guild whose look failed waits for the next (default 30 s doubling to 10 min). */
  backoff?: BackoffPolicy | undefined;
  /** Told each time a guild's look failed and it backed off (the metrics). */
  onBackoff?: (() => void) | undefined;
}

interface GuardedGuild {
  dirty: boolean;
  running: boolean;
  /** Looks failed in a row: each doubles the wait before the next. */
  failures: number;
  /** The look due later: when the wait of `after` ends, or a retry. */
  timer: unknown;
}

/**
 * The coverage guard (/duty minimum): while a session of a guild runs and fewer than its minimum of staff are on
 * shift for longer than its `after`, the guild's health alert says so (one message, edited as the numbers
 * change, resolved when covered or when the sessions end). A guild is looked at when the record's writer merged
 * a shift or session change of it, when its minimum changed, when its wait ends, and every ten minutes while a
 * session runs there; only those guilds are kept here (at the start, the guilds with a minimum are looked at
 * once). Since when a guild is short is stored, so a restart neither starts the wait anew nor posts a second
 * alert (the alert's own incident is found again). Looks at one guild never overlap; changes meanwhile are
 * coalesced into the next look. A guild whose look fails (its record unreadable) backs off, 30 s doubling to 10
 * min, changes meanwhile waiting for its retry; the other guilds are looked at as before. Its backoff is kept in
 * memory: a restart looks at every guarded guild once anyway.
 */
export class CoverageGuard implements Job {
  private readonly guilds = new Map<string, GuardedGuild>();
  /** The guilds with a running session at their last look: kept here, and looked at every ten minutes. */
  private readonly keep = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly refreshing: Repeating;
  private stopped = true;

  constructor(private readonly deps: CoverageGuardDeps) {
    this.refreshing = new Repeating(
      deps.timers,
      REFRESH_EVERY_MS,
      () => Promise.resolve(this.changedAll([...this.guilds.keys()])),
      () => undefined,
    );
  }

  async start(): Promise<void> {
    this.stopped = false;
    this.refreshing.start();
    try {
      this.changedAll((await this.deps.duty.listGuarded()).map((coverage) => coverage.guildId));
    } catch (error) {
      this.deps.logger.warn({ err: toLoggableError(error) }, 'the guarded guilds could not be listed');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.refreshing.stop();
    for (const guild of this.guilds.values()) this.deps.timers.clearTimeout(guild.timer);
    await this.idle();
  }

  /** The guild's shifts, sessions or minimum changed: it is looked at now. */
  changed(guildId: string): void {
    let guild = this.guilds.get(guildId);
    if (!guild) {
      guild = { dirty: false, running: false, failures: 0, timer: undefined };
      this.guilds.set(guildId, guild);
    }
    guild.dirty = true;
    this.run(guildId, guild);
  }

  changedAll(guildIds: readonly string[]): void {
    for (const guildId of guildIds) this.changed(guildId);
  }

  /** Resolves when no look is under way (tests). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** The guilds kept here now (tests: only those with a session or a shortfall stay). */
  watched(): string[] {
    return [...this.guilds.keys()];
  }

  private run(guildId: string, guild: GuardedGuild): void {
    if (this.stopped || guild.running || !guild.dirty) return;
    // Backing off after a failed look: a change meanwhile waits for the retry, which looks at it.
    if (guild.failures > 0 && guild.timer !== undefined) return;
    guild.running = true;
    guild.dirty = false;
    this.deps.timers.clearTimeout(guild.timer);
    guild.timer = undefined;
    const done = this.look(guildId)
      .then((due) => {
        guild.failures = 0;
        this.after(guildId, guild, due);
      })
      .catch((error: unknown) => {
        guild.failures += 1;
        const retryAt = this.deps.clock() + backoffDelay(guild.failures, this.deps.backoff ?? DEFAULT_BACKOFF);
        this.deps.logger.warn(
          { guildId, failures: guild.failures, retryAt: new Date(retryAt).toISOString(), err: toLoggableError(error) },
          'the coverage of a running session could not be checked; tried again later (this guild backs off)',
        );
        this.deps.onBackoff?.();
        this.after(guildId, guild, retryAt);
      })
      .finally(() => {
        guild.running = false;
        this.running.delete(done);
        if (guild.dirty) this.run(guildId, guild);
        else if (guild.timer === undefined && !this.keep.has(guildId)) this.guilds.delete(guildId);
      });
    this.running.add(done);
  }

  /** Schedules the next look at `due` (null: none due). */
  private after(guildId: string, guild: GuardedGuild, due: number | null): void {
    if (due === null || this.stopped) return;
    guild.timer = this.deps.timers.setTimeout(
      () => {
        guild.timer = undefined;
        this.changed(guildId);
      },
      Math.max(0, due - this.deps.clock()),
    );
  }

  /** Looks at the guild and reports it; when its next look is due without a change (null: none). */
  private async look(guildId: string): Promise<number | null> {
    const coverage = await this.deps.duty.coverageOf(guildId);
    if (coverage.minimum === null) {
      this.keep.delete(guildId);
      await this.deps.report(guildId, null);
      return null;
    }
    const now = this.deps.clock();
    const sessions = countedSessions(await this.deps.record.runningSessions(guildId), now);
    if (sessions.length > 0) this.keep.add(guildId);
    else this.keep.delete(guildId);
    const onShift =
      sessions.length === 0 ? 0 : splitOpenShifts(await this.deps.record.openShifts(guildId), now).onDuty.length;
    const verdict = judgeCoverage({
      minimum: coverage.minimum,
      sessions,
      onShift,
      uncoveredSince: coverage.uncoveredSince,
      now,
      minuteMs: this.deps.minuteMs ?? MINUTE_MS,
    });
    const since = verdict.state === 'covered' ? null : verdict.since;
    if (since !== coverage.uncoveredSince) await this.deps.duty.setUncoveredSince(guildId, since);
    if (verdict.state !== 'alert') {
      await this.deps.report(guildId, null);
      return verdict.state === 'short' ? verdict.alertAt : null;
    }
    const onLeave = ((await this.deps.leave?.onLeaveAt(guildId, now)) ?? [])
      .filter((leave) => leave.kind === 'leave')
      .map((leave) => leave.memberId);
    const shortfall = { minimum: coverage.minimum, onShift, since: verdict.since, sessions };
    await this.deps.report(guildId, onLeave.length > 0 ? { ...shortfall, onLeave } : shortfall);
    return null;
  }
}
