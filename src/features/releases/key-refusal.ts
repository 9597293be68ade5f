import { ServiceApiError } from '../../upstream/service-api-error.js';
import type { AppDocuments } from './app-documents.js';

/** True for the service's 401 or 403 to a developer call: the key is no good until a new one is set. */
export function isKeyRefusal(error: unknown): error is ServiceApiError & { status: 401 | 403 } {
  return (
    error instanceof ServiceApiError && error.failure === 'rejected' && (error.status === 401 || error.status === 403)
  );
}

/**
 * Writes down that the service refused the guild's developer key: polling stops for it and the poller posts
 * the one admin message, until /app key sets a new key. A refusal already written down is kept as it is.
 */
export async function markKeyRefused(
  documents: Pick<AppDocuments, 'updateGuild'>,
  guildId: string,
  status: 401 | 403,
  now: number,
): Promise<void> {
  await documents.updateGuild(guildId, (guild) =>
    guild.keyRefusal === null || guild.keyRefusal.status !== status
      ? { ...guild, keyRefusal: { status, at: now, noticePosted: false } }
      : guild,
  );
}
