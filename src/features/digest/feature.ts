import type { BackoffPolicy } from '../../base/backoff.js';
import { createPostFinder } from '../../discord/posting/find-post.js';
import type { BotParts, Feature } from '../feature.js';
import { leaveOf, type ReducedQuotas } from '../leave/index.js';
import { recordOf, type ChartDrawer } from '../record/index.js';
import { DigestJob, type DigestJobDeps } from './digest-job.js';
import { quotasOf } from './index.js';
import { digestModule } from './store/digest-module.js';
import type { Digests } from './store/digests.js';

/** A week's digest post is remembered this long (it keeps the week from being posted twice), then swept. */
export const POSTS_KEPT_MS = 366 * 24 * 60 * 60 * 1000;

/** What /quota and /digest are given. */
export interface DigestDeps {
  digests: Digests;
  /** The reduced quotas (/quota set reduced:), kept with leave. */
  reducedQuotas: ReducedQuotas;
}

/** What the digest tells other features. */
export interface DigestListeners {
  onPostOutcome?: DigestJobDeps['onPostOutcome'];
}

export interface DigestTimings {
  checkEveryMs?: number;
  /** How long a week's post taken and not posted is left to its taker (default two minutes). */
  takenForMs?: number;
  /** How long a guild whose digest failed waits before its next try (default 2 min doubling to 6 h). */
  backoff?: BackoffPolicy;
}

/**
 * Duty quotas and the weekly digest: each guild's week (shift leaderboard, quotas met or missed, cases, modcalls,
 * sessions, a chart) posted once at the day and hour its admins chose, in their time zone.
 */
export function createDigestFeature(
  parts: BotParts,
  charts: ChartDrawer,
  timings: DigestTimings = {},
  listeners: DigestListeners = {},
): Feature<DigestDeps> {
  const digests = parts.store.of(digestModule);
  const community = recordOf(parts.store);
  const leave = leaveOf(parts.store);
  const job = new DigestJob({
    digests,
    record: community,
    leave,
    activity: { record: community, leave, quotas: quotasOf(parts.store) },
    charts,
    poster: parts.poster,
    findPosted: createPostFinder(parts.discord, parts.config.DISCORD_TOKEN),
    // Fetched where this process's client does not keep it (the shards spread over processes: its cache is empty),
    // and not kept then: one digest a week needs no guild in memory.
    guildOf: (guildId) =>
      parts.discord.guilds.cache.get(guildId) ??
      parts.discord.guilds.fetch({ guild: guildId, cache: false }).catch(() => undefined),
    clock: parts.clock,
    timers: parts.timers,
    logger: parts.logger,
    checkEveryMs: timings.checkEveryMs,
    takenForMs: timings.takenForMs,
    backoff: timings.backoff,
    onPostOutcome: listeners.onPostOutcome,
    onBackoff: () => parts.metrics.guildBackoff('digest'),
  });
  return {
    deps: { digests, reducedQuotas: leave },
    jobs: [job],
    sweep: (now) => digests.sweepPosts(now - POSTS_KEPT_MS),
  };
}
