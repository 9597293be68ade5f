import type { Logger } from '../../base/logger.js';
import { toLoggableError } from '../../discord/log-error.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { AppDocuments, AppGuild } from './app-documents.js';
import { renderKeyRefusal } from './release-card.js';

export interface KeyRefusalNoticeDeps {
  documents: Pick<AppDocuments, 'updateGuild'>;
  poster: Pick<Poster, 'post'>;
  logger: Logger;
}

/**
 * The one admin message about a refused developer key (see key-refusal.ts), in the channel of the guild's first
 * watch, tried once: it is written down as posted even when Discord refused it (which is logged). Its nonce names
 * the refusal, so a retry after a crash lands on the same message.
 */
export async function postKeyRefusalNotice(deps: KeyRefusalNoticeDeps, guild: AppGuild): Promise<void> {
  const refusal = guild.keyRefusal;
  const [first] = Object.values(guild.watches).sort((a, b) => a.createdAt - b.createdAt);
  if (!refusal || refusal.noticePosted || !first) return;
  try {
    const nonce = makeCardNonce(['refusal', guild.guildId, String(refusal.at)]);
    await deps.poster.post(first.channelId, renderKeyRefusal(refusal.status), nonce);
  } catch (error) {
    deps.logger.warn({ guildId: guild.guildId, err: toLoggableError(error) }, 'could not post the key notice');
  }
  await deps.documents.updateGuild(guild.guildId, (current) =>
    current.keyRefusal ? { ...current, keyRefusal: { ...current.keyRefusal, noticePosted: true } } : current,
  );
}
