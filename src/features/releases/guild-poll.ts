import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { toLoggableError } from '../../discord/log-error.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import type { EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { SecretBox } from '../../store/secret-box.js';
import type { DeveloperClient } from '../../upstream/developer-client.js';
import type { AppDetail } from '../../upstream/developer-schemas.js';
import { ServiceApiError } from '../../upstream/service-api-error.js';
import type { AppDocuments, AppGuild } from './app-documents.js';
import type { AppSchedule } from './app-schedule.js';
import type { DeveloperCache } from './developer-cache.js';
import { followApp } from './follow-app.js';
import { postKeyRefusalNotice } from './key-refusal-notice.js';
import { isKeyRefusal, markKeyRefused } from './key-refusal.js';
import { notePollFailure, notePollSuccess, type PollHealth } from './poll-failures.js';

/** What one guild's poll uses. */
export interface GuildPollDeps extends EarlierPostDeps {
  documents: AppDocuments;
  developer: DeveloperClient;
  secrets: SecretBox;
  poster: Poster;
  cache: DeveloperCache;
  clock: Clock;
  logger: Logger;
  /** Told after each poll of a guild whether its polls keep failing (the feed-health alerts raise an alert). */
  onPollHealth?: (guildId: string, health: PollHealth) => void;
}

/** What the poller lends a guild's poll: the apps' schedule, its stop, and its waits (counted by PollActivity). */
export interface PollRun {
  schedule: AppSchedule;
  stopped(): boolean;
  sleep(ms: number): Promise<void>;
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
 * One poll of one guild: GET /apps, then GET /apps/:id for each watched app that is due, and its release cards
 * brought up to date; the outcome is written down (poll-failures.ts), and a refused key ends polling for the
 * guild (key-refusal.ts). Resolves with `heldUntil` when the service's `retry-after` holds the guild's key: the
 * guild is polled again after it. Any other error it does not expect is the caller's to log.
 */
export async function pollGuild(
  deps: GuildPollDeps,
  run: PollRun,
  guild: AppGuild,
): Promise<{ heldUntil: number } | undefined> {
  let key: string;
  try {
    key = deps.secrets.open(guild.developerKey ?? '');
  } catch {
    const problem = "the stored developer key cannot be decrypted with this bot's SECRET_KEY: run /app key";
    await notePollFailure(deps, guild.guildId, problem);
    return undefined;
  }
  const caller = { key, purpose: 'poll' as const };
  const problems: string[] = [];
  try {
    const apps = await withBudget(deps, run, key, () => deps.developer.listApps(caller));
    deps.cache.apps.set(guild.guildId, apps);
    for (const watch of Object.values(guild.watches)) {
      const summary = apps.find((app) => app.id === watch.appId);
      if (!summary) {
        problems.push(`${watch.appName} (app ${watch.appId}) is no longer among the account's apps`);
        continue;
      }
      if (!run.schedule.isDue(guild.guildId, summary, deps.clock())) continue;
      const detail = await withBudget(deps, run, key, () => deps.developer.getApp(caller, watch.appId));
      const followed = await follow(deps, guild.guildId, watch, detail, problems);
      run.schedule.noteRead(guild.guildId, summary, detail, followed, deps.clock());
    }
  } catch (error) {
    if (error instanceof Stopped) return undefined;
    if (error instanceof KeyHeld) {
      // Not a failed poll (the 429 counted where it came): the guild is skipped until the wait has passed.
      deps.logger.info(
        { guildId: guild.guildId, until: new Date(error.untilMs).toISOString() },
        'developer key held by retry-after: this guild is polled again after it',
      );
      return { heldUntil: error.untilMs };
    }
    if (isKeyRefusal(error)) {
      await markKeyRefused(deps.documents, guild.guildId, error.status, deps.clock());
      await postKeyRefusalNotice(deps, await deps.documents.readGuild(guild.guildId));
      deps.logger.warn({ guildId: guild.guildId, status: error.status }, 'developer key refused: polling stops');
      return undefined;
    }
    await notePollFailure(deps, guild.guildId, describeProblem(deps, error, guild.guildId));
    return undefined;
  }
  if (problems.length > 0) await notePollFailure(deps, guild.guildId, problems.join('; '));
  else await notePollSuccess(deps, guild.guildId);
  return undefined;
}

/** Brings the app's cards up to date; false when Discord refused something (tried again at the next poll). */
async function follow(
  deps: GuildPollDeps,
  guildId: string,
  watch: AppGuild['watches'][string],
  detail: AppDetail,
  problems: string[],
): Promise<boolean> {
  try {
    const result = await followApp(deps, guildId, watch, detail);
    if (result.posted + result.edited + result.outcomes > 0) {
      deps.logger.info({ guildId, appId: watch.appId, ...result }, 'release cards updated');
    }
    return true;
  } catch (error) {
    if (error instanceof ServiceApiError) throw error;
    // Discord refused: the other apps still get their cards; /status says what went wrong where.
    problems.push(`could not post or edit release cards in <#${watch.channelId}>: ${describeDiscordError(error)}`);
    deps.logger.warn({ guildId, appId: watch.appId, err: toLoggableError(error) }, 'release card failed');
    return false;
  }
}

/** Makes `call` once the key's polling share allows; a `retry-after` is not waited for here (see KeyHeld). */
async function withBudget<T>(deps: GuildPollDeps, run: PollRun, key: string, call: () => Promise<T>): Promise<T> {
  for (;;) {
    if (run.stopped()) throw new Stopped();
    const decision = deps.developer.checkBudget(key, 'poll');
    // Called in the same turn as the check: another guild polling with the same key cannot take the place.
    if (decision.ok) return call();
    if (decision.reason === 'retry_after') throw new KeyHeld(deps.clock() + decision.waitMs);
    await run.sleep(decision.waitMs);
  }
}

function describeProblem(deps: GuildPollDeps, error: unknown, guildId: string): string {
  if (error instanceof ServiceApiError) return error.message;
  deps.logger.error({ guildId, err: toLoggableError(error) }, 'release poll failed unexpectedly');
  return 'an unexpected error (logged)';
}
