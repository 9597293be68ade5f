import type { Logger } from '../../base/logger.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { ModcallHandling, RecordView } from '../record/index.js';
import type { ModcallCard } from './modcall-card.js';

/**
 * Tells the community record who claimed and resolved a modcall, from its card, for response times (/staff
 * stats). The card's own state is already stored: a record that cannot take it now is logged, not the click's
 * failure, and the moderator's click stands.
 */
export function recordModcallHandling(
  community: Pick<RecordView, 'noteModcallHandled'>,
  logger: Logger,
): (card: ModcallCard) => Promise<void> {
  return async (card) => {
    const handled: ModcallHandling = {};
    if (card.claimedBy !== null && card.claimedAt !== null) {
      handled.claimedBy = card.claimedBy;
      handled.claimedAt = card.claimedAt;
    }
    if (card.resolvedBy !== null && card.resolvedAt !== null) {
      handled.resolvedBy = card.resolvedBy;
      handled.resolvedAt = card.resolvedAt;
    }
    const calls = card.calls.map((call) => ({
      callerId: card.caller.robloxId,
      at: call.at,
      callerName: card.caller.name,
    }));
    try {
      await community.noteModcallHandled(card.guildId, card.server, calls, handled);
    } catch (error) {
      logger.warn(
        { guildId: card.guildId, messageId: card.messageId, err: toLoggableError(error) },
        'the community record missed a modcall claim or resolution',
      );
    }
  };
}
