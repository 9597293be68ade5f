import type { APIEmbed } from 'discord.js';

import type { Logger } from '../../base/logger.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import { postWrittenDown, type EarlierPostDeps } from '../../discord/posting/post-once.js';
import type { MessageEdit, Poster } from '../../discord/posting/poster.js';
import type { PostedCard } from './store/staff-actions-store.js';

/** What posting a staff card needs: the one poster, and the finder of an earlier post for a late retry. */
export type CardPostingDeps = EarlierPostDeps & { poster: Poster; logger: Logger };

/**
 * Posts a card that is already kept in the store (its row written first, `writtenAt` its time), under a nonce made
 * from what it is about, so a retried command lands on the same message. Resolves with where it was posted, or
 * with what Discord said when it would not take it (the action stays done: a card is its notice, not the action).
 */
export async function postStaffCard(
  deps: CardPostingDeps,
  channelId: string,
  embed: APIEmbed,
  about: readonly string[],
  writtenAt: number,
): Promise<{ card: PostedCard } | { failed: string }> {
  try {
    const { messageId } = await postWrittenDown(
      deps,
      channelId,
      { embeds: [embed], allowed_mentions: { parse: [] } },
      { nonce: makeCardNonce(['staff', ...about]), writtenAt },
    );
    return { card: { channelId, messageId } };
  } catch (error) {
    const reason = describeDiscordError(error);
    deps.logger.warn({ channelId, reason }, 'a staff card was not posted');
    return { failed: reason };
  }
}

/** Edits a card in place; what Discord said when it would not (a deleted card is left deleted). */
export async function editStaffCard(
  deps: Pick<CardPostingDeps, 'poster' | 'logger'>,
  card: PostedCard,
  embed: APIEmbed,
): Promise<string | null> {
  const body: MessageEdit = { embeds: [embed], allowed_mentions: { parse: [] } };
  try {
    await deps.poster.edit(card.channelId, card.messageId, body);
    return null;
  } catch (error) {
    const reason = describeDiscordError(error);
    deps.logger.warn({ channelId: card.channelId, reason }, 'a staff card was not edited');
    return reason;
  }
}
