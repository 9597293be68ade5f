import type { Guild } from 'discord.js';

import { backoffDelay, type BackoffPolicy } from '../../base/backoff.js';
import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { Repeating } from '../../base/repeating.js';
import { wallDate } from '../../base/time-zone.js';
import type { Timers } from '../../base/timers.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { PostFinder } from '../../discord/posting/find-post.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import type { OutgoingFile, Poster } from '../../discord/posting/poster.js';
import { isRefusedByDiscord } from '../../discord/posting/send-failure.js';
import type { Job } from '../feature.js';
import { readActivity, type ActivitySources, type LeaveView } from '../leave/index.js';
import type { ChartDrawer, GuildDay, RecordQueries, TimeRange } from '../record/index.js';
import { describeDigest, DIGEST_CHART, type DigestFacts } from './describe-digest.js';
import { quotaResults } from './quota-report.js';
import type { Digests, StoredDigestSchedule } from './store/digests.js';
import { nextDigestAt, weekEndingAt } from './weekly-schedule.js';

/** Nobody on leave: a digest job told of no leave. */
const NO_LEAVE: Pick<LeaveView, 'leaveIn' | 'reducedQuotasOf'> = {
  leaveIn: () => Promise.resolve([]),
  reducedQuotasOf: () => Promise.resolve(new Map()),
};

/** How often the schedules due are looked at: a digest is posted within this of its hour. */
const DEFAULT_CHECK_EVERY_MS = 60_000;
/** Digests posted per check at most: a backlog (after downtime) is worked off a few a minute. */
const DUE_PER_CHECK = 10;
/**
 * A week's post taken this long ago and not posted was taken by a process that died (or by this one, whose send
 * failed): it is taken over, the channel searched for the digest first.
 */
const DEFAULT_TAKEN_FOR_MS = 2 * 60 * 1000;
/**
 * A guild whose digest failed is tried again after this (doubling with each failure of the week, never sooner than
 * its take goes stale): a channel that refuses the bot costs a few tries a day, not one a check.
 */
const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 2 * 60 * 1000, capMs: 6 * 60 * 60 * 1000 };
const DAY_MS = 24 * 60 * 60 * 1000;

/** Discord's refusal of a guild's digest, and when it is tried again. */
export interface DigestRefused {
  channelId: string;
  reason: string;
  /** The posts refused (or failed) in a row since the schedule last moved on. */
  failures: number;
  retryAt: number;
}

export interface DigestJobDeps {
  digests: Digests;
  record: Pick<RecordQueries, 'leaderboard' | 'guildCases' | 'modcallResponse' | 'sessionTotals' | 'guildDays'>;
  /** Who was on approved leave (quotas excuse them, or hold them to the reduced hours); none: nobody. */
  leave?: Pick<LeaveView, 'leaveIn' | 'reducedQuotasOf'> | undefined;
  /** What the week's activity is read from (its short version in the digest); none: not shown. */
  activity?: ActivitySources | undefined;
  charts: ChartDrawer;
  poster: Poster;
  findPosted: PostFinder;
  /** The guild, to look members up for the quotas; undefined when the bot cannot see it. */
  guildOf: (guildId: string) => Guild | undefined | Promise<Guild | undefined>;
  clock: Clock;
  timers: Timers;
  logger: Logger;
  checkEveryMs?: number | undefined;
  takenForMs?: number | undefined;
  /** How long a guild whose digest failed waits before its next try (default 2 min doubling to 6 h). */
  backoff?: BackoffPolicy | undefined;
  /**
   * Told when Discord refuses a digest's post in its channel (403, 404, another 4xx), and when a digest was
   * posted (null): admins hear of a digest that cannot be posted (a health alert) instead of it being tried
   * unseen.
   */
  onPostOutcome?: ((guildId: string, refused: DigestRefused | null) => void) | undefined;
  /** Told each time a guild's digest failed and the guild backed off (the metrics). */
  onBackoff?: (() => void) | undefined;
}

/**
 * Posts each guild's weekly digest once per week (/digest set): every minute it reads the schedules due (by
 * index), takes the week's post (a unique key per guild and week: one caller of any process posts it), builds
 * it from the record, posts it under a nonce of the guild and week, writes its id down and moves the schedule on.
 * A bot that was down at the hour posts the latest week ended when it is back, marked late; the weeks before it
 * are not posted one by one. A guild whose post fails backs off: its next try is stored with its schedule (2
 * minutes on, doubling to 6 hours), and the due read passes over it until then, so guilds whose channel refuses
 * the digest never hold back the others'. At the next try the channel is searched for the digest first, so a post
 * whose answer was lost is not posted twice.
 */
export class DigestJob implements Job {
  private readonly repeating: Repeating;

  constructor(private readonly deps: DigestJobDeps) {
    this.repeating = new Repeating(
      deps.timers,
      deps.checkEveryMs ?? DEFAULT_CHECK_EVERY_MS,
      () => this.check(),
      (error) =>
        deps.logger.warn({ err: toLoggableError(error) }, 'weekly digest check failed; retried at the next check'),
    );
  }

  start(): void {
    this.repeating.start();
  }

  stop(): Promise<void> {
    return this.repeating.stop();
  }

  /** Posts the digests due now (tests call it; the timer does every minute). */
  async check(): Promise<void> {
    const now = this.deps.clock();
    for (const schedule of await this.deps.digests.dueSchedules(now, DUE_PER_CHECK)) {
      await this.post(schedule, now).catch((error: unknown) => this.backOff(schedule, error));
    }
  }

  /** The guild's post failed: it is tried again later (stored), and admins hear of a refusal. */
  private async backOff(schedule: StoredDigestSchedule, error: unknown): Promise<void> {
    const { guildId, channelId } = schedule;
    const failures = schedule.failures + 1;
    // Counted from the failure, not the check's start; its take (made at the check's start) is stale by then, so
    // the try does not find it busy and wait for nothing.
    const takenForMs = this.deps.takenForMs ?? DEFAULT_TAKEN_FOR_MS;
    const retryAt =
      this.deps.clock() + Math.max(takenForMs, backoffDelay(failures, this.deps.backoff ?? DEFAULT_BACKOFF));
    this.deps.logger.warn(
      { guildId, channelId, failures, retryAt: new Date(retryAt).toISOString(), err: toLoggableError(error) },
      'weekly digest not posted; this guild backs off, the others go on',
    );
    this.deps.onBackoff?.();
    await this.deps.digests
      .backOffSchedule(guildId, schedule.nextAt, retryAt)
      .catch((stored: unknown) =>
        this.deps.logger.warn(
          { guildId, err: toLoggableError(stored) },
          "the weekly digest's backoff could not be stored; tried again at the next check",
        ),
      );
    // A refusal stays until an admin acts; a network or server failure passes on its own.
    if (isRefusedByDiscord(error)) {
      this.deps.onPostOutcome?.(guildId, { channelId, reason: error.failure.reason, failures, retryAt });
    }
  }

  private async post(schedule: StoredDigestSchedule, now: number): Promise<void> {
    const { digests } = this.deps;
    const { guildId, channelId, weekday, hour, timeZone } = schedule;
    // The latest week ended by now: after downtime, the weeks before it are passed over.
    let weekEnd = schedule.nextAt;
    for (let next = nextDigestAt(weekday, hour, timeZone, weekEnd); next <= now;) {
      weekEnd = next;
      next = nextDigestAt(weekday, hour, timeZone, weekEnd);
    }
    const take = await digests.takePost(
      guildId,
      weekEnd,
      channelId,
      now,
      now - (this.deps.takenForMs ?? DEFAULT_TAKEN_FOR_MS),
    );
    if (take.kind === 'busy') return;
    if (take.kind === 'taken') {
      const week = weekEndingAt(weekEnd, hour, timeZone);
      const facts = await this.factsOf(guildId, week, timeZone, now - weekEnd);
      const chart = await this.deps.charts.draw({ kind: 'week', days: facts.days, timeZone });
      const files: OutgoingFile[] = chart
        ? [{ name: DIGEST_CHART, data: chart, description: 'Hours on duty, cases and modcalls per day' }]
        : [];
      const message = { embeds: [describeDigest(facts, chart !== undefined)], files };
      // Taken over from an earlier take: its send may have reached Discord with its answer lost.
      const earlier =
        take.askedBefore === undefined ? undefined : await this.deps.findPosted(channelId, message, take.askedBefore);
      const messageId =
        earlier ??
        (await this.deps.poster.post(channelId, message, makeCardNonce(['digest', guildId, String(weekEnd)])));
      await digests.markPosted(guildId, weekEnd, messageId, this.deps.clock());
      this.deps.logger.info({ guildId, channelId, weekEnd, late: now - weekEnd }, 'weekly digest posted');
      this.deps.onPostOutcome?.(guildId, null);
    }
    await digests.advanceSchedule(guildId, schedule.nextAt, nextDigestAt(weekday, hour, timeZone, weekEnd));
  }

  private async factsOf(guildId: string, week: TimeRange, timeZone: string, lateMs: number): Promise<DigestFacts> {
    const { record, digests } = this.deps;
    const [shifts, cases, moderators, modcalls, sessions, found, quotas] = await Promise.all([
      record.leaderboard(guildId, 'shifts', week),
      record.guildCases(guildId, week),
      record.leaderboard(guildId, 'cases', week),
      record.modcallResponse(guildId, week),
      record.sessionTotals(guildId, week),
      record.guildDays(guildId, week, timeZone),
      digests.quotasOf(guildId),
    ]);
    const guild = await this.deps.guildOf(guildId);
    const hasRole = async (memberId: string, roleId: string) => {
      const member = await guild?.members.fetch(memberId).catch(() => undefined);
      return member?.roles.cache.has(roleId);
    };
    return {
      week,
      timeZone,
      lateMs,
      shifts,
      ...(this.deps.activity
        ? { activity: (await readActivity(this.deps.activity, guild, guildId, week, this.deps.clock(), null)).members }
        : {}),
      quotas: await quotaResults(record, this.deps.leave ?? NO_LEAVE, hasRole, guildId, quotas, week),
      cases,
      moderators,
      modcalls,
      sessions,
      days: everyDay(week, found, timeZone),
    };
  }
}

/** Every day of the time zone the week touches (as wallDate names them), 0 where the record has nothing. */
function everyDay(week: TimeRange, found: readonly GuildDay[], timeZone: string): GuildDay[] {
  const byDay = new Map(found.map((day) => [day.day, day]));
  const days: GuildDay[] = [];
  const last = wallDate(week.to - 1, timeZone);
  for (let day = wallDate(week.from, timeZone); day <= last; day += DAY_MS) {
    days.push(byDay.get(day) ?? { day, shiftSeconds: 0, cases: 0, modcalls: 0 });
  }
  return days;
}
