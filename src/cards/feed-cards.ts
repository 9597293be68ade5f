import { makeCardNonce } from '../apps/release-card.js';
import type { Clock } from '../clock.js';
import { describeDiscordError } from '../discord/posting/classify-discord-error.js';
import type { MessageEdit, Poster } from '../discord/posting/poster.js';
import { formatCaseType } from '../embeds/case-type.js';
import { formatPersonId } from '../embeds/people.js';
import { formatEventTime } from '../embeds/time.js';
import type { MessagePayload } from '../embeds/types.js';
import { classifyEntry } from '../feed/render-entry.js';
import { SendError } from '../feed/send-failure.js';
import type { Logger } from '../logger.js';
import type { QueuedEntry } from '../store/deliveries.js';
import type { EventOf, ServiceEvent } from '../upstream/schemas.js';
import type { CardRecords, ModcallCard, SubjectCard } from './card-records.js';
import { finalEmbeds, fitsOneMessage, sessionStartOf, storedEnding, type Ending } from './final-state.js';
import { eventOfCard, freshState, renderModcallMessage, type ModcallMessage } from './modcall-message.js';
import { subjectOf } from './subjects.js';

/** A later call of the same caller within this time is the same modcall: its card is edited, nobody pinged. */
export const REPEAT_CALL_WINDOW_MS = 10 * 60 * 1000;

/** One entry of the lane with the message it renders to. */
export interface RenderedEntry {
  item: QueuedEntry;
  payload: MessagePayload;
  /** The payload already shows its subject's final state (a case drawn voided): nothing to edit once posted. */
  settled?: boolean;
}

/**
 * What the lane sends next:
 * - `post`: a new message of these entries (a modcall goes alone, with its buttons); `cut` when an entry
 *   after them must go on its own, so the message should not wait for more;
 * - `update`: the first entry changes a card already posted (a repeat call, a voided case, an ended session or
 *   shift): `run` edits it (and replies where that notifies); `gone` when the card can no longer be edited,
 *   which the lane answers by posting the entry as a message of its own.
 */
export type LanePlan =
  | { kind: 'post'; items: RenderedEntry[]; components: ModcallMessage['components']; cut: boolean }
  | { kind: 'update'; entry: QueuedEntry; run: () => Promise<'done' | 'gone'> };

export interface FeedCardsDeps {
  records: CardRecords;
  poster: Poster;
  clock: Clock;
  logger: Logger;
}

/** What an entry is, read once per plan. */
interface Facts {
  rendered: RenderedEntry;
  event: ServiceEvent | undefined;
  subject: ReturnType<typeof subjectOf>;
}

/**
 * The living feed's part of a lane: modcalls go alone with Claim and Resolve, and later events of a case,
 * session or shift edit the card their first event posted. Every edit is idempotent (the whole message's
 * embeds are sent again) and every reply carries a nonce, so a lane that resends after a crash does no harm.
 */
export class FeedCards {
  constructor(private readonly deps: FeedCardsDeps) {}

  async plan(guildId: string, rendered: readonly RenderedEntry[]): Promise<LanePlan> {
    const facts = rendered.map((entry) => this.read(entry));
    const [first] = facts;
    if (!first) return { kind: 'post', items: [], components: [], cut: false };

    if (first.event?.event === 'modcall') {
      const update = await this.planRepeatCall(guildId, first, first.event);
      if (update) return update;
      return this.planNewModcall(first, first.event);
    }
    if (first.subject?.role === 'final') {
      const card = await this.deps.records.subject(guildId, first.subject.key);
      if (card) return { kind: 'update', entry: first.rendered.item, run: () => this.finish(guildId, first, card) };
    }

    const items: RenderedEntry[] = [];
    for (const fact of facts) {
      if (items.length > 0 && (await this.mustGoAlone(guildId, fact, items))) {
        return { kind: 'post', items, components: [], cut: true };
      }
      items.push(
        fact.subject?.role === 'origin'
          ? await this.drawOrigin(guildId, fact, facts, items)
          : this.mergeIntoOrigin(fact, facts, items),
      );
    }
    return { kind: 'post', items, components: [], cut: false };
  }

  /**
   * After Discord confirmed a message: where its cards are, for the events that will change them; and the final
   * events it carries on their own, for cards posted later. Then each side looks for the other (a card posted
   * while its end was being posted elsewhere): whichever is recorded second sees the first, so the card is
   * turned into its final state by at least one of them (an edit to the same state twice changes nothing).
   */
  async posted(guildId: string, channelId: string, messageId: string, items: readonly RenderedEntry[]): Promise<void> {
    const embeds = items.flatMap((entry) => entry.payload.embeds);
    const unsettled: Array<{ key: string; card: SubjectCard }> = [];
    const finals: Facts[] = [];
    let index = 0;
    for (const entry of items) {
      const fact = this.read(entry);
      const { event, subject } = fact;
      const count = entry.payload.embeds.length;
      if (subject?.role === 'origin' && count > 0) {
        const card = {
          channelId,
          messageId,
          embedIndex: index,
          embedCount: count,
          postedAt: this.deps.clock(),
          ...(event?.event === 'session.started' ? { sessionStart: { ...event.data.session } } : {}),
        };
        await this.deps.records.saveSubject(guildId, subject.key, card);
        if (!entry.settled) unsettled.push({ key: subject.key, card });
      }
      if (subject?.role === 'final' && count > 0) {
        const { deliveryId, event: name, rawBody } = entry.item;
        await this.deps.records.saveFinalState(guildId, subject.key, {
          deliveryId,
          event: name,
          rawBody,
          at: this.deps.clock(),
        });
        finals.push(fact);
      }
      if (event?.event === 'modcall') await this.saveNewModcall(guildId, channelId, messageId, entry, event);
      index += count;
    }
    if (unsettled.length > 0)
      await this.deps.records.saveMessageEmbeds(channelId, messageId, embeds, this.deps.clock());

    for (const { key, card } of unsettled) {
      const final = await this.deps.records.finalState(guildId, key);
      if (final) await this.drawFinal(guildId, key, card, storedEnding(final));
    }
    for (const final of finals) {
      const key = final.subject?.key ?? '';
      const card = await this.deps.records.subject(guildId, key);
      if (card && card.messageId !== messageId) await this.drawFinal(guildId, key, card, endingOf(final));
    }
  }

  private read(rendered: RenderedEntry): Facts {
    const classified = classifyEntry(rendered.item);
    const event = classified.kind === 'event' ? classified.event : undefined;
    return { rendered, event, subject: subjectOf(classified) };
  }

  /** A modcall, or a final event whose card exists (and whose first event is not in this message). */
  private async mustGoAlone(guildId: string, fact: Facts, before: readonly RenderedEntry[]): Promise<boolean> {
    if (fact.event?.event === 'modcall') return true;
    if (fact.subject?.role !== 'final') return false;
    const key = fact.subject.key;
    if (before.some((entry) => this.read(entry).subject?.key === key)) return false;
    return (await this.deps.records.subject(guildId, key)) !== undefined;
  }

  /**
   * Both events of a pair in one message: the first shows the final state at once and the final event adds
   * nothing (it is still part of the message, so it is confirmed with it).
   */
  private mergeIntoOrigin(fact: Facts, facts: readonly Facts[], items: RenderedEntry[]): RenderedEntry {
    if (fact.subject?.role !== 'final') return fact.rendered;
    const key = fact.subject.key;
    const originAt = items.findIndex((entry) => {
      const origin = facts.find((candidate) => candidate.rendered === entry);
      return origin?.subject?.key === key && origin.subject.role === 'origin';
    });
    const origin = items[originAt];
    if (!origin) return fact.rendered;
    const start = facts.find((candidate) => candidate.rendered === origin)?.event;
    items[originAt] = {
      item: origin.item,
      payload: { ...origin.payload, embeds: finalEmbeds(endingOf(fact), sessionStartOf(start)) },
      settled: true,
    };
    return { item: fact.rendered.item, payload: { embeds: [], allowed_mentions: { parse: [] } } };
  }

  /**
   * A case, session or shift whose end is known already (posted on its own before, in any lane, or earlier in this
   * message) is posted in its final state at once.
   */
  private async drawOrigin(
    guildId: string,
    fact: Facts,
    facts: readonly Facts[],
    before: readonly RenderedEntry[],
  ): Promise<RenderedEntry> {
    const key = fact.subject?.key;
    const earlier = facts.find(
      (candidate) =>
        candidate.subject?.key === key &&
        candidate.subject?.role === 'final' &&
        before.some((entry) => entry.item === candidate.rendered.item),
    );
    const stored = earlier || key === undefined ? undefined : await this.deps.records.finalState(guildId, key);
    const ending = earlier ? endingOf(earlier) : stored ? storedEnding(stored) : undefined;
    if (!ending) return fact.rendered;
    const embeds = finalEmbeds(ending, sessionStartOf(fact.event));
    return { item: fact.rendered.item, payload: { ...fact.rendered.payload, embeds }, settled: true };
  }

  private planNewModcall(first: Facts, event: EventOf<'modcall'>): LanePlan {
    const pingRoleId = first.rendered.payload.allowed_mentions.roles?.[0];
    const message = renderModcallMessage(
      event,
      freshState(event.id, event.data.at),
      pingRoleId ? { mentionRoleId: pingRoleId } : {},
    );
    const { components, ...payload } = message;
    return { kind: 'post', items: [{ item: first.rendered.item, payload }], components, cut: true };
  }

  private async planRepeatCall(
    guildId: string,
    first: Facts,
    event: EventOf<'modcall'>,
  ): Promise<LanePlan | undefined> {
    const messageId = await this.deps.records.latestCallOf(guildId, event.server, event.data.caller.robloxId);
    const card = messageId === undefined ? undefined : await this.deps.records.modcall(guildId, messageId);
    if (!card || card.resolvedAt !== null) return undefined;
    const counted = card.calls.some((call) => call.deliveryId === event.id);
    const lastCall = card.calls.at(-1)?.at ?? 0;
    if (!counted && event.data.at - lastCall > REPEAT_CALL_WINDOW_MS) return undefined;
    return { kind: 'update', entry: first.rendered.item, run: () => this.addCall(card, event) };
  }

  /** Counts the call on its card (once, whatever resends) and edits the card; no ping. */
  private async addCall(card: ModcallCard, event: EventOf<'modcall'>): Promise<'done' | 'gone'> {
    const updated = await this.deps.records.updateModcall(card.guildId, card.messageId, (current) =>
      current && !current.calls.some((call) => call.deliveryId === event.id)
        ? { ...current, calls: [...current.calls, { deliveryId: event.id, at: event.data.at }] }
        : current,
    );
    if (!updated) return 'gone';
    const { embeds, components } = renderModcallMessage(eventOfCard(updated), updated, {});
    const edited = await this.edit(card.channelId, card.messageId, { embeds, components });
    if (edited === 'gone') await this.deps.records.updateModcall(card.guildId, card.messageId, () => undefined);
    return edited;
  }

  private async saveNewModcall(
    guildId: string,
    channelId: string,
    messageId: string,
    entry: RenderedEntry,
    event: EventOf<'modcall'>,
  ): Promise<void> {
    const pingRoleId = entry.payload.allowed_mentions.roles?.[0] ?? null;
    const postedAt = this.deps.clock();
    const card = await this.deps.records.updateModcall(guildId, messageId, (current) => {
      if (current) return current;
      return {
        guildId,
        channelId,
        messageId,
        server: event.server,
        caller: { robloxId: event.data.caller.robloxId, name: event.data.caller.name },
        ...freshState(event.id, event.data.at),
        postedAt,
        pingRoleId,
        escalatedAt: null,
      };
    });
    const { robloxId } = event.data.caller;
    await this.deps.records.saveLatestCall(guildId, event.server, robloxId, messageId, card?.postedAt ?? postedAt);
  }

  /**
   * Turns a posted card into its final state: its embeds replaced in the message (all of the message's embeds
   * are sent, as Discord replaces the list), then, for a voided case, a reply to it (an edit notifies nobody).
   */
  private async finish(guildId: string, fact: Facts, card: SubjectCard): Promise<'done' | 'gone'> {
    if ((await this.drawFinal(guildId, fact.subject?.key ?? '', card, endingOf(fact))) === 'gone') return 'gone';
    if (fact.event?.event === 'case.voided') await this.replyVoided(card, fact, fact.event);
    return 'done';
  }

  /**
   * Replaces a card's embeds with its final state in its message (all of the message's embeds are sent, as
   * Discord replaces the list); nothing is sent when it shows that state already. `gone` (and the card
   * forgotten) when the card can no longer be edited or its final state no longer fits its message.
   */
  private async drawFinal(guildId: string, key: string, card: SubjectCard, ending: Ending): Promise<'done' | 'gone'> {
    const forget = async () => {
      await this.deps.records.saveSubject(guildId, key, null);
      return 'gone' as const;
    };
    const current = await this.deps.records.messageEmbeds(card.channelId, card.messageId);
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
    await this.deps.records.saveMessageEmbeds(card.channelId, card.messageId, embeds, card.postedAt);
    await this.deps.records.saveSubject(guildId, key, { ...card, embedCount: replacement.length });
    return 'done';
  }

  private async replyVoided(
    card: { channelId: string; messageId: string },
    fact: Facts,
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
    await this.deps.poster.post(card.channelId, body, nonce);
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

function endingOf(fact: Facts): Ending {
  return { event: fact.event, embeds: fact.rendered.payload.embeds };
}
