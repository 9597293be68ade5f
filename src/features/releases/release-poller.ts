import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { AppGuild } from './app-documents.js';
import { AppSchedule } from './app-schedule.js';
import { pollGuild, type GuildPollDeps, type PollRun } from './guild-poll.js';
import { postKeyRefusalNotice } from './key-refusal-notice.js';
import { PollActivity, type Nap } from './poll-activity.js';

/** How often the poller looks, and how often it reads each app's versions. */
export interface PollIntervals {
  /** One GET /apps per guild per cycle. */
  cycleMs: number;
  /** GET /apps/:id for an app with a version waiting for review. */
  pendingEveryMs: number;
  /** GET /apps/:id for the other apps (a change in GET /apps makes it due at once). */
  idleEveryMs: number;
}

export const DEFAULT_POLL_INTERVALS: PollIntervals = {
  cycleMs: 60_000,
  pendingEveryMs: 60_000,
  idleEveryMs: 15 * 60_000,
};

/** What the poller uses: what a guild's poll uses (guild-poll.ts), timers, and how often it looks. */
export interface ReleasePollerOptions extends GuildPollDeps {
  timers: Timers;
  intervals?: Partial<PollIntervals>;
}

/**
 * Follows the review of every watched app and keeps its release cards current. Each cycle starts a poll of
 * every guild that is due (a minute after its last one began) with a developer key the service accepts and at
 * least one watch: GET /apps, then GET /apps/:id for the watched apps that are due (every minute while a version
 * waits for review, every 15 minutes otherwise, at once when the app's entry in GET /apps changed).
 *
 * Guilds are polled side by side, so one guild's trouble is its own: every request waits for its key's polling
 * share of the budget (30 a minute, see RequestBudget), so with many apps that guild's poll stretches instead
 * of going over it; a key the service's `retry-after` holds is skipped, not waited for, until it has passed;
 * a poll that throws is logged and the others go on; a guild whose document cannot be read is passed over. A 401
 * or 403 stops polling for that guild until /app key sets a new key, with one admin message (posted beside the
 * cycle when it is left over from an earlier run).
 */
export class ReleasePoller {
  private readonly intervals: PollIntervals;
  private readonly schedule: AppSchedule;
  /** Guild polls in progress (one at most per guild), and when each guild polled is due again. */
  private readonly polls = new Map<string, Promise<void>>();
  /** Refused keys' notices being posted (one at most per guild), beside the cycle. */
  private readonly notices = new Map<string, Promise<void>>();
  private readonly nextPollAt = new Map<string, number>();
  private readonly activity: PollActivity;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Whether the poller should be running: the last call was start(), not stop(). */
  private wanted = false;
  private betweenCycles: Nap | undefined;
  private readonly run: PollRun;

  constructor(private readonly options: ReleasePollerOptions) {
    this.intervals = { ...DEFAULT_POLL_INTERVALS, ...options.intervals };
    this.activity = new PollActivity(options.timers);
    this.schedule = new AppSchedule(this.intervals);
    this.run = {
      schedule: this.schedule,
      stopped: () => this.stopped,
      sleep: (ms) => this.activity.sleep(ms).done,
    };
  }

  /**
   * Starts the loop; the first cycle runs at once and catches up on what changed while the bot was down. Started
   * again after a stop (the gateway lease lost, then regained), it polls again; started while a stop is still
   * ending the last loop, the next loop begins once that one has ended.
   */
  start(): void {
    this.wanted = true;
    if (this.running) return;
    this.stopped = false;
    this.activity.begin();
    this.running = this.loop().finally(() => {
      this.running = undefined;
      if (this.wanted) this.start();
    });
  }

  /** Stops the loop and waits for the polls in progress to end. */
  async stop(): Promise<void> {
    this.wanted = false;
    this.stopped = true;
    this.activity.wakeAll();
    await this.running;
    await Promise.all([...this.polls.values(), ...this.notices.values()]);
  }

  /**
   * Makes an app's versions due now and starts a cycle soon: after a submission or a withdrawal, the card
   * follows without waiting for the schedule.
   */
  pollSoon(guildId: string, appId: string): void {
    this.schedule.force(guildId, appId);
    this.betweenCycles?.wake();
  }

  /**
   * Resolves once the poller is waiting for a timer (between cycles, or for budget) or stopped: what a test
   * with a fake clock awaits after moving the clock, before looking at what the poller did.
   */
  settled(): Promise<void> {
    return this.activity.settled();
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let wait = this.intervals.cycleMs;
      try {
        await this.runCycle();
        wait = this.untilNextPoll();
      } catch (error) {
        // The store failed to list the guilds: logged, and tried again a cycle later; the process goes on.
        this.options.logger.error({ err: toLoggableError(error) }, 'release poller cycle failed');
      }
      if (this.stopped) break;
      this.betweenCycles = this.activity.sleep(wait);
      await this.betweenCycles.done;
      this.betweenCycles = undefined;
    }
    this.activity.end();
  }

  /** Starts the poll of every guild that is due and not being polled; posts the notice of a refused key. */
  private async runCycle(): Promise<void> {
    const guilds = await this.options.documents.listGuilds();
    const now = this.options.clock();
    const polled = new Set<string>();
    for (const guild of guilds) {
      if (this.stopped) return;
      if (Object.keys(guild.watches).length === 0) continue;
      if (guild.keyRefusal !== null) {
        if (!guild.keyRefusal.noticePosted) this.postRefusalNotice(guild);
        continue;
      }
      if (guild.developerKey === null) continue;
      polled.add(guild.guildId);
      if (!this.polls.has(guild.guildId) && this.isGuildDue(guild.guildId, now)) this.startPoll(guild);
    }
    // A guild no longer polled (no watch, no key, refused) must not wake the loop.
    for (const guildId of this.nextPollAt.keys()) if (!polled.has(guildId)) this.nextPollAt.delete(guildId);
  }

  private isGuildDue(guildId: string, now: number): boolean {
    return now >= (this.nextPollAt.get(guildId) ?? now) || this.schedule.hasForced(guildId);
  }

  /** Time until the next guild poll falls due (those in progress are waited for by themselves), at most a cycle. */
  private untilNextPoll(): number {
    const now = this.options.clock();
    let next = now + this.intervals.cycleMs;
    for (const [guildId, at] of this.nextPollAt) if (!this.polls.has(guildId)) next = Math.min(next, at);
    return Math.max(0, next - now);
  }

  /** Polls one guild beside the others; whatever it throws is logged here, so no poll can end the process. */
  private startPoll(guild: AppGuild): void {
    const { guildId } = guild;
    this.nextPollAt.set(guildId, this.options.clock() + this.intervals.cycleMs);
    this.activity.begin();
    const poll = pollGuild(this.options, this.run, guild)
      .then((outcome) => {
        if (outcome) this.nextPollAt.set(guildId, outcome.heldUntil);
      })
      .catch((error: unknown) => {
        this.options.logger.error({ guildId, err: toLoggableError(error) }, 'release poll failed unexpectedly');
      })
      .finally(() => {
        this.polls.delete(guildId);
        this.activity.end();
        // A poll its budget stretched past its interval is followed by the next at once.
        if (this.options.clock() >= (this.nextPollAt.get(guildId) ?? 0)) this.betweenCycles?.wake();
      });
    this.polls.set(guildId, poll);
  }

  /**
   * Posts the notice of a refused key beside the cycle (Discord may be slow in that guild's channel: the other
   * guilds' polls do not wait for it), one at a time per guild; whatever it throws is logged here.
   */
  private postRefusalNotice(guild: AppGuild): void {
    const { guildId } = guild;
    if (this.notices.has(guildId)) return;
    const notice = postKeyRefusalNotice(this.options, guild)
      .catch((error: unknown) => {
        this.options.logger.error({ guildId, err: toLoggableError(error) }, 'could not write down the key notice');
      })
      .finally(() => this.notices.delete(guildId));
    this.notices.set(guildId, notice);
  }
}
