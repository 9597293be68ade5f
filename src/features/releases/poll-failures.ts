import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import type { AppDocuments } from './app-documents.js';

/** Failed polls in a row that raise the alert (logged, and shown in /status). */
export const ALERT_AFTER_FAILURES = 5;

/** Whether a guild's polls keep failing: after {@link ALERT_AFTER_FAILURES} in a row, with the last problem. */
export type PollHealth = { failing: false } | { failing: true; failures: number; problem: string };

/** Where a poll's outcome is written down and told. */
export interface PollOutcomeDeps {
  documents: Pick<AppDocuments, 'updateGuild'>;
  clock: Clock;
  logger: Logger;
  /** Told after each poll of a guild whether its polls keep failing (the feed-health alerts raise an alert). */
  onPollHealth?: (guildId: string, health: PollHealth) => void;
}

/** A guild's poll went through: its failures in a row and its alert end. */
export async function notePollSuccess(deps: PollOutcomeDeps, guildId: string): Promise<void> {
  const now = deps.clock();
  await deps.documents.updateGuild(guildId, (guild) => ({
    ...guild,
    poll: { lastGoodAt: now, failures: 0, lastProblem: null, alertedAt: null },
  }));
  deps.onPollHealth?.(guildId, { failing: false });
}

/**
 * A guild's poll failed with `problem` (shown in /status): one more failure in a row, and at
 * {@link ALERT_AFTER_FAILURES} the alert, logged once as an error.
 */
export async function notePollFailure(deps: PollOutcomeDeps, guildId: string, problem: string): Promise<void> {
  const now = deps.clock();
  const guild = await deps.documents.updateGuild(guildId, (current) => {
    const failures = current.poll.failures + 1;
    const alert = failures >= ALERT_AFTER_FAILURES && current.poll.alertedAt === null;
    return {
      ...current,
      poll: { ...current.poll, failures, lastProblem: problem, alertedAt: alert ? now : current.poll.alertedAt },
    };
  });
  if (guild.poll.alertedAt !== null) {
    deps.onPollHealth?.(guildId, { failing: true, failures: guild.poll.failures, problem });
  }
  if (guild.poll.alertedAt === now && guild.poll.failures === ALERT_AFTER_FAILURES) {
    // Logged once, shown in /status, and (through onPollHealth) an alert in the alert channel where one is set.
    deps.logger.error({ guildId, failures: guild.poll.failures, problem }, 'release poller alert: polls keep failing');
  } else {
    deps.logger.warn({ guildId, failures: guild.poll.failures, problem }, 'release poll failed');
  }
}
