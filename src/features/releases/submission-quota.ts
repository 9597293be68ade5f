import { time } from 'discord.js';

import { UserFacingError } from '../../base/errors.js';
import type { AppDocuments, AppGuild } from './app-documents.js';

/** The service's limit (upstream-api.md §8), counted here too, so the 11th is refused before any call. */
export const SUBMISSIONS_PER_HOUR = 10;
const HOUR_MS = 60 * 60 * 1000;

/** Submissions still possible in the hour before `now`. */
export function submissionsLeft(guild: Pick<AppGuild, 'submissions'>, now: number): number {
  return Math.max(0, SUBMISSIONS_PER_HOUR - guild.submissions.filter((at) => now - at < HOUR_MS).length);
}

/**
 * Counts one submission at `now`, in the same write that checks the count, so two Submit clicks at once cannot
 * both take the tenth place. Returns the submissions left after this one.
 * @throws UserFacingError when 10 were sent in the last hour, saying when the next one is possible
 */
export async function takeSubmissionSlot(
  documents: Pick<AppDocuments, 'updateGuild'>,
  guildId: string,
  now: number,
): Promise<number> {
  let full: number | undefined;
  const guild = await documents.updateGuild(guildId, (current) => {
    const recent = current.submissions.filter((at) => now - at < HOUR_MS);
    if (recent.length >= SUBMISSIONS_PER_HOUR) {
      full = Math.min(...recent) + HOUR_MS;
      return { ...current, submissions: recent };
    }
    return { ...current, submissions: [...recent, now] };
  });
  if (full !== undefined) {
    throw new UserFacingError(
      `This server has sent ${SUBMISSIONS_PER_HOUR} submissions in the last hour, the most the service allows; nothing was sent. ` +
        `The next one is possible ${time(Math.ceil(full / 1000), 'R')}.`,
    );
  }
  return submissionsLeft(guild, now);
}

/** Gives back the place taken at `at`, for a submission the service refused (it did not count it either). */
export async function returnSubmissionSlot(
  documents: Pick<AppDocuments, 'updateGuild'>,
  guildId: string,
  at: number,
): Promise<void> {
  await documents.updateGuild(guildId, (guild) => {
    const index = guild.submissions.lastIndexOf(at);
    if (index === -1) return guild;
    return { ...guild, submissions: guild.submissions.filter((_, i) => i !== index) };
  });
}
