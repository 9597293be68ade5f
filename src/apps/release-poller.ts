import type { Clock } from '../clock.js';
import { toLoggableError } from '../discord/log-error.js';
import { describeDiscordError } from '../discord/posting/classify-discord-error.js';
import type { Poster } from '../discord/posting/poster.js';
import type { Logger } from '../logger.js';
import type { SecretBox } from '../store/secret-box.js';
import type { Timers } from '../timers.js';
import type { DeveloperClient } from '../upstream/developer-client.js';
import type { AppDetail, AppSummary } from '../upstream/developer-schemas.js';
import { ServiceApiError } from '../upstream/service-api-error.js';
import type { AppGuild, AppRecords } from './app-records.js';
import type { DeveloperCache } from './developer-cache.js';
import { followApp } from './follow-app.js';
import { isKeyRefusal, markKeyRefused } from './key-refusal.js';
import { PollActivity, type Nap } from './poll-activity.js';
import { makeCardNonce, renderKeyRefusal } from './release-card.js';

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

/** Failed polls in a row that raise the alert (logged, and shown in /status). */
export const ALERT_AFTER_FAILURES = 5;

export interface ReleasePollerOptions {
  records: AppRecords;
  developer: DeveloperClient;
  secrets: SecretBox;
  poster: Poster;
  cache: DeveloperCache;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  intervals?: Partial<PollIntervals>;
  /** Told after each poll of a guild whether its polls keep failing (the feed-health alerts raise an alert). */
  onPollHealth?: (guildId: string, health: PollHealth) => void;
}

/** Whether a guild's polls keep failing: after {@link ALERT_AFTER_FAILURES} in a row, with the last problem. */
export type PollHealth = { failing: false } | { failing: true; failures: number; problem: string };

/** What the poller remembers about one watched app between cycles (memory only: a restart re-reads all). */
interface AppPollState {
  nextDetailAt: number;
  fingerprint: string;
}

/** Thrown inside a guild's poll when the poller is stopped while it waits. */
class Stopped extends Error {}

/** Thrown inside a guild's poll when the service's `retry-after` holds its key: the guild waits, no one else. */
class KeyHeld extends Error {
  constructor(readonly untilMs: number) {
    super('the developer key is held by the service retry-after');
  }
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
 * a poll that throws is logged and the others go on. A 401 or 403 stops polling for that guild until /app key
 * sets a new key, with one admin message.
 */
export class ReleasePoller {
  private readonly intervals: PollIntervals;
  private readonly apps = new Map<string, AppPollState>();
  private readonly forced = new Set<string>();
  /** Guild polls in progress (one at most per guild), and when each guild polled is due again. */
  private readonly polls = new Map<string, Promise<void>>();
  private readonly nextPollAt = new Map<string, number>();
  private readonly activity: PollActivity;
  private running: Promise<void> | undefined;
  private stopped = false;
  /** Whether the poller should be running: the last call was start(), not stop(). */
  private wanted = false;
  private betweenCycles: Nap | undefined;

  constructor(private readonly options: ReleasePollerOptions) {
    this.intervals = { ...DEFAULT_POLL_INTERVALS, ...options.intervals };
    this.activity = new PollActivity(options.timers);
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
    await Promise.all(this.polls.values());
  }

  /**
   * Makes an app's versions due now and starts a cycle soon: after a submission or a withdrawal, the card
   * follows without waiting for the schedule.
   */
  pollSoon(guildId: string, appId: string): void {
    this.forced.add(stateKey(guildId, appId));
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
    const guilds = await this.options.records.listGuilds();
    const now = this.options.clock();
    const polled = new Set<string>();
    for (const guild of guilds) {
      if (this.stopped) return;
      if (Object.keys(guild.watches).length === 0) continue;
      if (guild.keyRefusal !== null) {
        if (!guild.keyRefusal.noticePosted) await this.postRefusalNoticeSafely(guild);
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
    if (now >= (this.nextPollAt.get(guildId) ?? now)) return true;
    const prefix = stateKey(guildId, '');
    return [...this.forced].some((key) => key.startsWith(prefix));
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
    const poll = this.pollGuild(guild)
      .catch((error: unknown) => {
        if (error instanceof Stopped) return;
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

  private async pollGuild(guild: AppGuild): Promise<void> {
    const { developer, secrets } = this.options;
    let key: string;
    try {
      key = secrets.open(guild.developerKey ?? '');
    } catch {
      await this.recordFailure(
        guild.guildId,
        "the stored developer key cannot be decrypted with this bot's SECRET_KEY: run /app key",
      );
      return;
    }
    const caller = { key, purpose: 'poll' as const };
    const problems: string[] = [];
    try {
      const apps = await this.withBudget(key, () => developer.listApps(caller));
      this.options.cache.apps.set(guild.guildId, apps);
      for (const watch of Object.values(guild.watches)) {
        const summary = apps.find((app) => app.id === watch.appId);
        if (!summary) {
          problems.push(`${watch.appName} (app ${watch.appId}) is no longer among the account's apps`);
          continue;
        }
        if (!this.isDue(guild.guildId, summary)) continue;
        const detail = await this.withBudget(key, () => developer.getApp(caller, watch.appId));
        const followed = await this.follow(guild.guildId, watch, detail, problems);
        this.schedule(guild.guildId, summary, detail, followed);
      }
    } catch (error) {
      if (error instanceof Stopped) throw error;
      if (error instanceof KeyHeld) {
        // Not a failed poll (the 429 counted where it came): the guild is skipped until the wait has passed.
        this.nextPollAt.set(guild.guildId, error.untilMs);
        this.options.logger.info(
          { guildId: guild.guildId, until: new Date(error.untilMs).toISOString() },
          'developer key held by retry-after: this guild is polled again after it',
        );
        return;
      }
      if (isKeyRefusal(error)) {
        await markKeyRefused(this.options.records, guild.guildId, error.status, this.options.clock());
        await this.postRefusalNotice(await this.options.records.readGuild(guild.guildId));
        this.options.logger.warn(
          { guildId: guild.guildId, status: error.status },
          'developer key refused: polling stops',
        );
        return;
      }
      await this.recordFailure(guild.guildId, this.describe(error, guild.guildId));
      return;
    }
    if (problems.length > 0) await this.recordFailure(guild.guildId, problems.join('; '));
    else await this.recordSuccess(guild.guildId);
  }

  /** Brings the app's cards up to date; false when Discord refused something (tried again at the next poll). */
  private async follow(
    guildId: string,
    watch: AppGuild['watches'][string],
    detail: AppDetail,
    problems: string[],
  ): Promise<boolean> {
    try {
      const result = await followApp(this.options, guildId, watch, detail);
      if (result.posted + result.edited + result.outcomes > 0) {
        this.options.logger.info({ guildId, appId: watch.appId, ...result }, 'release cards updated');
      }
      return true;
    } catch (error) {
      if (error instanceof ServiceApiError) throw error;
      // Discord refused: the other apps still get their cards; /status says what went wrong where.
      problems.push(`could not post or edit release cards in <#${watch.channelId}>: ${describeDiscordError(error)}`);
      this.options.logger.warn({ guildId, appId: watch.appId, err: toLoggableError(error) }, 'release card failed');
      return false;
    }
  }

  private isDue(guildId: string, summary: AppSummary): boolean {
    const key = stateKey(guildId, summary.id);
    const state = this.apps.get(key);
    if (!state || this.forced.has(key)) return true;
    return state.fingerprint !== summary.fingerprint || this.options.clock() >= state.nextDetailAt;
  }

  /** When the app's versions are read next: soon while a version waits for review or a card still owes a change. */
  private schedule(guildId: string, summary: AppSummary, detail: AppDetail, followed: boolean): void {
    const key = stateKey(guildId, summary.id);
    const waiting = detail.versions.some((version) => version.pending) || summary.pending !== undefined;
    const every = waiting || !followed ? this.intervals.pendingEveryMs : this.intervals.idleEveryMs;
    this.apps.set(key, { nextDetailAt: this.options.clock() + every, fingerprint: summary.fingerprint });
    this.forced.delete(key);
  }

  /** Makes `call` once the key's polling share allows; a `retry-after` is not waited for here (see KeyHeld). */
  private async withBudget<T>(key: string, call: () => Promise<T>): Promise<T> {
    for (;;) {
      if (this.stopped) throw new Stopped();
      const decision = this.options.developer.checkBudget(key, 'poll');
      // Called in the same turn as the check: another guild polling with the same key cannot take the place.
      if (decision.ok) return call();
      if (decision.reason === 'retry_after') throw new KeyHeld(this.options.clock() + decision.waitMs);
      await this.activity.sleep(decision.waitMs).done;
    }
  }

  private async postRefusalNoticeSafely(guild: AppGuild): Promise<void> {
    try {
      await this.postRefusalNotice(guild);
    } catch (error) {
      this.options.logger.error(
        { guildId: guild.guildId, err: toLoggableError(error) },
        'could not write down the key notice',
      );
    }
  }

  /** The one admin message about a refused key, in the channel of the guild's first watch. */
  private async postRefusalNotice(guild: AppGuild): Promise<void> {
    const refusal = guild.keyRefusal;
    const [first] = Object.values(guild.watches).sort((a, b) => a.createdAt - b.createdAt);
    if (!refusal || refusal.noticePosted || !first) return;
    try {
      const nonce = makeCardNonce(['refusal', guild.guildId, String(refusal.at)]);
      await this.options.poster.post(first.channelId, renderKeyRefusal(refusal.status), nonce);
    } catch (error) {
      this.options.logger.warn(
        { guildId: guild.guildId, err: toLoggableError(error) },
        'could not post the key notice',
      );
    }
    await this.options.records.updateGuild(guild.guildId, (current) =>
      current.keyRefusal ? { ...current, keyRefusal: { ...current.keyRefusal, noticePosted: true } } : current,
    );
  }

  private async recordSuccess(guildId: string): Promise<void> {
    const now = this.options.clock();
    await this.options.records.updateGuild(guildId, (guild) => ({
      ...guild,
      poll: { lastGoodAt: now, failures: 0, lastProblem: null, alertedAt: null },
    }));
    this.options.onPollHealth?.(guildId, { failing: false });
  }

  private async recordFailure(guildId: string, problem: string): Promise<void> {
    const now = this.options.clock();
    const guild = await this.options.records.updateGuild(guildId, (current) => {
      const failures = current.poll.failures + 1;
      const alert = failures >= ALERT_AFTER_FAILURES && current.poll.alertedAt === null;
      return {
        ...current,
        poll: { ...current.poll, failures, lastProblem: problem, alertedAt: alert ? now : current.poll.alertedAt },
      };
    });
    if (guild.poll.alertedAt !== null) {
      this.options.onPollHealth?.(guildId, { failing: true, failures: guild.poll.failures, problem });
    }
    if (guild.poll.alertedAt === now && guild.poll.failures === ALERT_AFTER_FAILURES) {
      // Logged once, shown in /status, and (through onPollHealth) an alert in the alert channel where one is set.
      this.options.logger.error(
        { guildId, failures: guild.poll.failures, problem },
        'release poller alert: polls keep failing',
      );
    } else {
      this.options.logger.warn({ guildId, failures: guild.poll.failures, problem }, 'release poll failed');
    }
  }

  private describe(error: unknown, guildId: string): string {
    if (error instanceof ServiceApiError) return error.message;
    this.options.logger.error({ guildId, err: toLoggableError(error) }, 'release poll failed unexpectedly');
    return 'an unexpected error (logged)';
  }
}

function stateKey(guildId: string, appId: string): string {
  return `${guildId}:${appId}`;
}
