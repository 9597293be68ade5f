/** The hours each member of a role is to be on shift, per week or per calendar month (/quota set). */
export interface Quota {
  roleId: string;
  hours: number;
  per: 'week' | 'month';
}

/** Where and when a guild's weekly digest is posted (/digest set), and the end of the next week it covers. */
export interface DigestSchedule {
  guildId: string;
  channelId: string;
  /** 0 Sunday … 6 Saturday, as JavaScript's Date counts. */
  weekday: number;
  hour: number;
  /** An IANA time zone ("Europe/Berlin"); the day and hour are its. */
  timeZone: string;
  nextAt: number;
}

/** A schedule as the store keeps it: with the failed posts of its week, and when the digest job tries it next. */
export interface StoredDigestSchedule extends DigestSchedule {
  /** The posts that failed in a row since it last moved on (0 once it moves on, or is set anew). */
  failures: number;
  /** When the job tries it next: `nextAt`, or later while a failed post backs off. */
  tryAt: number;
}

/** What {@link Digests.takePost} found of a guild's digest for one week. */
export type DigestTake =
  /** This caller posts it; `askedBefore`: a caller before it took it then and was not heard of again. */
  | { readonly kind: 'taken'; readonly askedBefore: number | undefined }
  | { readonly kind: 'posted'; readonly messageId: string }
  /** Another caller took it a moment ago and is posting it. */
  | { readonly kind: 'busy' };

/**
 * Duty quotas and the weekly digest (src/features/digest): the settings, the guilds due, and each week's post, taken
 * by one caller only (a unique key per guild and week), so the digest is posted once per week whatever restarts
 * or processes there are.
 */
export interface Digests {
  setQuota(guildId: string, quota: Quota): Promise<void>;
  /** False when the role had no quota. */
  clearQuota(guildId: string, roleId: string): Promise<boolean>;
  quotasOf(guildId: string): Promise<Quota[]>;

  /** Sets the guild's schedule anew, tried at its `nextAt` (a backoff of the schedule before it ends). */
  setSchedule(schedule: DigestSchedule): Promise<void>;
  /** False when the guild had no digest. */
  clearSchedule(guildId: string): Promise<boolean>;
  scheduleOf(guildId: string): Promise<StoredDigestSchedule | undefined>;
  /**
   * Up to `limit` schedules to be tried by `now` (their week ended, and no backoff holds them), the longest due
   * first (by index: never every guild). A guild backing off is passed over until its time, so guilds whose
   * digest keeps failing never fill the read.
   */
  dueSchedules(now: number, limit: number): Promise<StoredDigestSchedule[]>;
  /**
   * Moves a schedule on to its next week, tried then, its failures forgotten; only if it still is where the
   * caller saw it (a new /digest set stands).
   */
  advanceSchedule(guildId: string, from: number, to: number): Promise<void>;
  /**
   * A post of the week ending at `from` failed: the schedule is tried again at `tryAt`, one more failure counted;
   * only if it still is where the caller saw it.
   */
  backOffSchedule(guildId: string, from: number, tryAt: number): Promise<void>;

  /**
   * Takes the post of the guild's digest for the week ending at `periodEnd`: the first caller takes it; a caller
   * whose take is older than `staleBefore` and was never posted is taken over (it died), and told when it was
   * taken, so the earlier post can be looked for before posting again.
   */
  takePost(
    guildId: string,
    periodEnd: number,
    channelId: string,
    now: number,
    staleBefore: number,
  ): Promise<DigestTake>;
  /** The digest was posted as `messageId`. */
  markPosted(guildId: string, periodEnd: number, messageId: string, now: number): Promise<void>;
  /** Deletes the posts of weeks that ended before `before`, in slices. */
  sweepPosts(before: number): Promise<number>;
}
