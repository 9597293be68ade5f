import type { Clock } from '../../base/clock.js';
import type { Logger } from '../../base/logger.js';
import { toLoggableError } from '../../discord/log-error.js';
import type { Poster } from '../../discord/posting/poster.js';
import type { CardPlanner, LanePlan, RenderedEntry } from '../../feed/card-plan.js';
import type { EventOf } from '../../upstream/schemas.js';
import { splitOpenShifts } from '../duty/index.js';
import type { RecordQueries } from '../record/index.js';
import type { SessionCardPosted } from '../threads/index.js';
import type { CardDocuments, FinalState } from './card-documents.js';
import { CardEdits } from './card-edits.js';
import { withEarlierCases } from './earlier-cases.js';
import { endingOf, readFacts, type EntryFacts } from './entry-facts.js';
import { finalEmbeds, sessionStartOf, storedEnding } from './final-state.js';
import type { ModcallCard } from './modcall-card.js';
import { freshState, renderModcallMessage } from './modcall-message.js';
import { notePosted } from './note-posted.js';

/**
 * A call of the same caller within this time of one of their card's calls is the same modcall: its card is edited,
 * nobody pinged. A call that comes late (a retried delivery) is measured from the card's nearest call, so a call made
 * long before the card is not counted on it.
 */
export const REPEAT_CALL_WINDOW_MS = 10 * 60 * 1000;
/** Staff on shift a modcall pings at most (on-duty-first): more would be a wall of mentions. */
export const MOST_ON_DUTY_PINGED = 10;

export interface FeedCardsDeps {
  documents: CardDocuments;
  /** What a new case's card says of the player's earlier cases; who is on shift for a modcall's first ping. */
  community: Pick<RecordQueries, 'earlierCases' | 'openShifts'>;
  poster: Poster;
  clock: Clock;
  logger: Logger;
  /**
   * Tells the community record which card a modcall's calls were counted on (a repeat call): its claim is then one
   * claim however many calls it gathers. Never throws (a record that cannot take it is logged).
   */
  noteModcallCard?: ((card: ModcallCard) => Promise<void>) | undefined;
  /** Told of each session's card once Discord confirmed it. */
  onSessionCard?: ((card: SessionCardPosted) => Promise<void>) | undefined;
}

/**
 * The living feed's part of a lane: modcalls go alone with Claim and Resolve, and later events of a case,
 * session or shift edit the card their first event posted. This plans what the lane sends next; the edits are
 * card-edits.ts's, and what a confirmed message leaves in the cards' documents is note-posted.ts's.
 */
export class FeedCards implements CardPlanner {
  private readonly edits: CardEdits;

  constructor(private readonly deps: FeedCardsDeps) {
    this.edits = new CardEdits(deps);
  }

  /** What the lane sends next of these entries (rendered in store order). */
  async plan(guildId: string, rendered: readonly RenderedEntry[]): Promise<LanePlan> {
    const facts = rendered.map((entry) => readFacts(entry));
    const [first] = facts;
    if (!first) return { kind: 'post', items: [], components: [], cut: false };

    if (first.event?.event === 'modcall') {
      const update = await this.planRepeatCall(guildId, first, first.event);
      if (update) return update;
      return this.planNewModcall(guildId, first, first.event);
    }
    if (first.subject?.role === 'final') {
      const card = await this.deps.documents.subject(guildId, first.subject.key);
      if (card)
        return { kind: 'update', entry: first.rendered.item, run: () => this.edits.finish(guildId, first, card) };
    }

    // The ends already kept of the cases, sessions and shifts this message may open, read at once (one round trip).
    const originKeys = facts.flatMap((fact) => (fact.subject?.role === 'origin' ? [fact.subject.key] : []));
    const ended = await this.deps.documents.finalStates(guildId, originKeys);
    const items: RenderedEntry[] = [];
    for (const fact of facts) {
      if (items.length > 0 && (await this.mustGoAlone(guildId, fact, items))) {
        return {
          kind: 'post',
          items: await withEarlierCases(this.deps.community, guildId, items),
          components: [],
          cut: true,
        };
      }
      items.push(
        fact.subject?.role === 'origin'
          ? this.drawOrigin(fact, facts, items, ended)
          : this.mergeIntoOrigin(fact, facts, items),
      );
    }
    return {
      kind: 'post',
      items: await withEarlierCases(this.deps.community, guildId, items),
      components: [],
      cut: false,
    };
  }

  /** Records what a message Discord confirmed carries (see {@link notePosted}). */
  posted(guildId: string, channelId: string, messageId: string, items: readonly RenderedEntry[]): Promise<void> {
    return notePosted(
      {
        documents: this.deps.documents,
        clock: this.deps.clock,
        edits: this.edits,
        onSessionCard: this.deps.onSessionCard,
      },
      { guildId, channelId, messageId },
      items,
    );
  }

  /** A modcall, or a final event whose card exists (and whose first event is not in this message). */
  private async mustGoAlone(guildId: string, fact: EntryFacts, before: readonly RenderedEntry[]): Promise<boolean> {
    if (fact.event?.event === 'modcall') return true;
    if (fact.subject?.role !== 'final') return false;
    const key = fact.subject.key;
    if (before.some((entry) => readFacts(entry).subject?.key === key)) return false;
    return (await this.deps.documents.subject(guildId, key)) !== undefined;
  }

  /**
   * Both events of a pair in one message: the first shows the final state at once and the final event adds
   * nothing (it is still part of the message, so it is confirmed with it).
   */
  private mergeIntoOrigin(fact: EntryFacts, facts: readonly EntryFacts[], items: RenderedEntry[]): RenderedEntry {
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
  private drawOrigin(
    fact: EntryFacts,
    facts: readonly EntryFacts[],
    before: readonly RenderedEntry[],
    ended: ReadonlyMap<string, FinalState>,
  ): RenderedEntry {
    const key = fact.subject?.key;
    const earlier = facts.find(
      (candidate) =>
        candidate.subject?.key === key &&
        candidate.subject?.role === 'final' &&
        before.some((entry) => entry.item === candidate.rendered.item),
    );
    const stored = earlier || key === undefined ? undefined : ended.get(key);
    const ending = earlier ? endingOf(earlier) : stored ? storedEnding(stored) : undefined;
    if (!ending) return fact.rendered;
    const embeds = finalEmbeds(ending, sessionStartOf(fact.event));
    return { item: fact.rendered.item, payload: { ...fact.rendered.payload, embeds }, settled: true };
  }

  /**
   * A new modcall's card, pinging its route's role; or, where the server chose on-duty-first, the staff on shift
   * now (at most {@link MOST_ON_DUTY_PINGED}, longest on shift first), the role only later (the escalator), or at
   * once when nobody is on shift. Decided here, when the lane plans the message: a resend sends what was written.
   */
  private async planNewModcall(guildId: string, first: EntryFacts, event: EventOf<'modcall'>): Promise<LanePlan> {
    const pingRoleId = first.rendered.payload.allowed_mentions.roles?.[0];
    const onDuty = (await this.deps.documents.onDutyFirst(guildId))
      ? await this.staffOnShift(guildId).catch((error: unknown) => {
          // Nobody known on shift: the role is pinged at once, as without on-duty-first.
          this.deps.logger.warn({ guildId, err: toLoggableError(error) }, 'who is on shift could not be read');
          return [];
        })
      : [];
    const message = renderModcallMessage(event, freshState(event.id, event.data.at), {
      ...(pingRoleId ? { mentionRoleId: pingRoleId } : {}),
      ...(onDuty.length > 0 ? { mentionUserIds: onDuty } : {}),
    });
    const { components, ...payload } = message;
    // Pinged in the role's place: the role (who may claim, whom the escalator pings later) is written down apart.
    const deferred = onDuty.length > 0 && pingRoleId ? { deferredRoleId: pingRoleId } : {};
    return { kind: 'post', items: [{ item: first.rendered.item, payload, ...deferred }], components, cut: true };
  }

  private async staffOnShift(guildId: string): Promise<string[]> {
    const { onDuty } = splitOpenShifts(await this.deps.community.openShifts(guildId), this.deps.clock());
    return onDuty
      .map((shift) => shift.memberId)
      .filter((id): id is string => id !== null)
      .slice(0, MOST_ON_DUTY_PINGED);
  }

  private async planRepeatCall(
    guildId: string,
    first: EntryFacts,
    event: EventOf<'modcall'>,
  ): Promise<LanePlan | undefined> {
    const messageId = await this.deps.documents.latestCallOf(guildId, event.server, event.data.caller.robloxId);
    const card = messageId === undefined ? undefined : await this.deps.documents.modcall(guildId, messageId);
    if (!card || card.resolvedAt !== null) return undefined;
    const counted = card.calls.some((call) => call.deliveryId === event.id);
    const near = card.calls.some((call) => Math.abs(event.data.at - call.at) <= REPEAT_CALL_WINDOW_MS);
    if (!counted && !near) return undefined;
    return { kind: 'update', entry: first.rendered.item, run: () => this.edits.addCall(card, event) };
  }
}
