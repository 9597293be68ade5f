import type { Logger } from '../../base/logger.js';
import { describeDiscordError } from '../../discord/posting/classify-discord-error.js';
import { makeCardNonce } from '../../discord/posting/nonce.js';
import type { MessageEdit, Poster } from '../../discord/posting/poster.js';
import { isRefusedByDiscord, SendError } from '../../discord/posting/send-failure.js';
import { formatCaseType } from '../../embeds/case-type.js';
import { formatPersonId } from '../../embeds/people.js';
import { formatEventTime } from '../../embeds/time.js';
import type { EventOf } from '../../upstream/schemas.js';
import type { CardDocuments, SubjectCard } from './card-documents.js';
import { endingOf, type EntryFacts } from './entry-facts.js';
import { finalEmbeds, fitsOneMessage, type Ending } from './final-state.js';
import type { ModcallCard } from './modcall-card.js';
import { eventOfCard, renderModcallMessage } from './modcall-message.js';

export interface CardEditsDeps {
  documents: CardDocuments;
  poster: Poster;
  logger: Logger;
  /** Tells the community record a card's calls (after a repeat call); never throws. */
  noteModcallCard?: ((card: ModcallCard) => Promise<void>) | undefined;
}

/**
 * Changes to cards already posted: a repeat call counted on its modcall card, a case, session or shift drawn in
 * its final state, and the reply that tells of a voided case (an edit notifies nobody). Every edit sends the
 * whole message's embeds and every reply carries a nonce, so one done twice (a lane resending after a crash)
 * does no harm. `gone` means the card can no longer be edited: the caller posts the entry on its own. A card may be
 * in a channel other than the lane's: Discord refusing that channel never holds the lane (a reply there is best
 * effort, an edit there `gone`).
 */
export class CardEdits {
  constructor(private readonly deps: CardEditsDeps) {}

  /** Counts the call on its card (once, whatever resends) and edits the card; no ping. */
  async addCall(card: ModcallCard, event: EventOf<'modcall'>): Promise<'done' | 'gone'> {
    const updated = await this.deps.documents.updateModcall(card.guildId, card.messageId, (current) =>
      current && !current.calls.some((call) => call.deliveryId === event.id)
        ? { ...current, calls: [...current.calls, { deliveryId: event.id, at: event.data.at }] }
        : current,
    );
    if (!updated) return 'gone';
    const { embeds, components } = renderModcallMessage(eventOfCard(updated), updated, {});
    const edited = await this.edit(card.channelId, card.messageId, { embeds, components });
    if (edited === 'gone') {
      await this.deps.documents.updateModcall(card.guildId, card.messageId, () => undefined);
      return edited;
    }
    // The record counts the call as this card's, so the card (claimed or not yet) counts once.
    await this.deps.noteModcallCard?.(updated);
    return edited;
  }

  /**
   * Turns a posted card into its final state: its embeds replaced in the message (all of the message's embeds
   * are sent, as Discord replaces the list), then, for a voided case, a reply to it (an edit notifies nobody).
   */
  async finish(guildId: string, fact: EntryFacts, card: SubjectCard): Promise<'done' | 'gone'> {
    if ((await this.drawFinal(guildId, fact.subject?.key ?? '', card, endingOf(fact))) === 'gone') return 'gone';
    if (fact.event?.event === 'case.voided') await this.replyVoided(card, fact, fact.event);
    return 'done';
  }

  /**
   * Replaces a card's embeds with its final state in its message (all of the message's embeds are sent, as
   * Discord replaces the list); nothing is sent when it shows that state already. `gone` (and the card
   * forgotten) when the card can no longer be edited or its final state no longer fits its message.
   */
  async drawFinal(guildId: string, key: string, card: SubjectCard, ending: Ending): Promise<'done' | 'gone'> {
    const forget = async () => {
      await this.deps.documents.saveSubject(guildId, key, null);
      return 'gone' as const;
    };
    const current = await this.deps.documents.messageEmbeds(card.channelId, card.messageId);
    if (!current) return forget();
    const replacement = finalEmbeds(ending, card.sessionStart);
    const embeds = [
      ...current.slice(0, card.embedIndex),
      ...replacement,
      ...current.slice(card.embedIndex + card.embedCount),
    ];
    if (!fitsOneMessage(embeds) || replacement.length === 0) return forget();
    if (JSON.stringify(embeds) === JSON.stringify(current)) return 'done';
    if ((await this.edit(card.channelId, card.messageId, { embeds })) === 'gone') return forget();
    await this.deps.documents.saveMessageEmbeds(card.channelId, card.messageId, embeds, card.postedAt);
    await this.deps.documents.saveSubject(guildId, key, { ...card, embedCount: replacement.length });
    return 'done';
  }

  private async replyVoided(
    card: { channelId: string; messageId: string },
    fact: EntryFacts,
    event: EventOf<'case.voided'>,
  ): Promise<void> {
    const voided = event.data.case;
    const text = `Case #${voided.number} · ${formatCaseType(voided.type)} was voided by ${formatPersonId(voided.voidedBy)} ${formatEventTime(voided.voidedAt)}.`;
    const ping = fact.rendered.payload.content;
    const body = {
      content: ping ? `${ping} ${text}` : text,
      embeds: [],
      // The route's role, if it has one, is the only mention; the reply pings nobody else.
      allowed_mentions: { ...fact.rendered.payload.allowed_mentions, replied_user: false },
      message_reference: { message_id: card.messageId, channel_id: card.channelId, fail_if_not_exists: false },
    };
    const nonce = makeCardNonce(['voided-reply', fact.rendered.item.hookId, fact.rendered.item.deliveryId]);
    try {
      await this.deps.poster.post(card.channelId, body, nonce);
    } catch (error) {
      // In the lane's own channel a refusal is the lane's (its channel broken, its events held until an admin acts).
      // In the card's channel elsewhere (the void's route changed since), the card shows the void already: the
      // reply is best effort, and that channel's refusal must not hold the lane's.
      const laneChannelId = fact.rendered.item.channelId;
      if (card.channelId === laneChannelId || !isRefusedByDiscord(error)) throw error;
      this.deps.logger.warn(
        { channelId: card.channelId, messageId: card.messageId, laneChannelId, reason: describeDiscordError(error) },
        "the reply to a voided case's card was refused in the card's channel; the card shows the void",
      );
    }
  }

  /** Edits a card; `gone` when its message or channel is (deleted, or the bot lost access). */
  private async edit(channelId: string, messageId: string, body: MessageEdit): Promise<'done' | 'gone'> {
    try {
      const edited = await this.deps.poster.edit(channelId, messageId, body);
      return edited === 'gone' ? 'gone' : 'done';
    } catch (error) {
      if (error instanceof SendError && error.failure.kind === 'broken') {
        this.deps.logger.info({ channelId, messageId, reason: describeDiscordError(error) }, 'card cannot be edited');
        return 'gone';
      }
      throw error;
    }
  }
}
