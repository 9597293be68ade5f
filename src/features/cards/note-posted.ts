import type { Clock } from '../../base/clock.js';
import type { RenderedEntry } from '../../feed/card-plan.js';
import type { EventOf } from '../../upstream/schemas.js';
import type { SessionCardPosted } from '../threads/index.js';
import type { CardDocuments, SubjectCard } from './card-documents.js';
import type { CardEdits } from './card-edits.js';
import { endingOf, readFacts, type EntryFacts } from './entry-facts.js';
import { storedEnding } from './final-state.js';
import { freshState } from './modcall-message.js';

export interface NotePostedDeps {
  documents: CardDocuments;
  clock: Clock;
  edits: Pick<CardEdits, 'drawFinal'>;
  /** Told of each session's card once Discord confirmed it (the session threads start from it). */
  onSessionCard?: ((card: SessionCardPosted) => Promise<void>) | undefined;
}

/** Where a message is: its guild, channel and id. */
export interface PostedMessage {
  guildId: string;
  channelId: string;
  messageId: string;
}

/**
 * After Discord confirmed a message: where its cards are, for the events that will change them; and the final
 * events it carries on their own, for cards posted later. Then each side looks for the other (a card posted
 * while its end was being posted elsewhere): whichever is recorded second sees the first, so the card is
 * turned into its final state by at least one of them (an edit to the same state twice changes nothing).
 */
export async function notePosted(
  deps: NotePostedDeps,
  posted: PostedMessage,
  items: readonly RenderedEntry[],
): Promise<void> {
  const { guildId, channelId, messageId } = posted;
  const embeds = items.flatMap((entry) => entry.payload.embeds);
  const cards: Array<{ subjectKey: string; card: SubjectCard; settled: boolean }> = [];
  const sessions: SessionCardPosted[] = [];
  const finals: EntryFacts[] = [];
  let index = 0;
  for (const entry of items) {
    const fact = readFacts(entry);
    const { event, subject } = fact;
    const count = entry.payload.embeds.length;
    if (subject?.role === 'origin' && count > 0) {
      const card = {
        channelId,
        messageId,
        embedIndex: index,
        embedCount: count,
        postedAt: deps.clock(),
        ...(event?.event === 'session.started' ? { sessionStart: { ...event.data.session } } : {}),
      };
      cards.push({ subjectKey: subject.key, card, settled: entry.settled === true });
      if (event?.event === 'session.started') {
        const { id, name } = event.data.session;
        sessions.push({ guildId, server: event.server, sessionId: id, name, channelId, messageId, at: card.postedAt });
      }
    }
    if (subject?.role === 'final' && count > 0) finals.push(fact);
    if (event?.event === 'modcall') await saveNewModcall(deps, posted, entry, event);
    index += count;
  }
  // A message's cards and final events are written in one statement each, not one per entry: on PostgreSQL each
  // costs the lane a round trip before its next message (ten entries made this the feed's slowest step).
  if (cards.length > 0) await deps.documents.saveSubjects(guildId, cards);
  for (const session of sessions) await deps.onSessionCard?.(session);
  if (finals.length > 0) {
    await deps.documents.saveFinalStates(
      guildId,
      finals.map(({ subject, rendered: { item } }) => ({
        subjectKey: subject?.key ?? '',
        final: { deliveryId: item.deliveryId, event: item.event, rawBody: item.rawBody, at: deps.clock() },
      })),
    );
  }
  const unsettled = cards.filter((card) => !card.settled);
  if (unsettled.length > 0) await deps.documents.saveMessageEmbeds(channelId, messageId, embeds, deps.clock());

  const ended = await deps.documents.finalStates(
    guildId,
    unsettled.map(({ subjectKey }) => subjectKey),
  );
  for (const { subjectKey, card } of unsettled) {
    const final = ended.get(subjectKey);
    if (final) await deps.edits.drawFinal(guildId, subjectKey, card, storedEnding(final));
  }
  for (const final of finals) {
    const key = final.subject?.key ?? '';
    const card = await deps.documents.subject(guildId, key);
    if (card && card.messageId !== messageId) await deps.edits.drawFinal(guildId, key, card, endingOf(final));
  }
}

/** A new modcall card, and its caller's latest call (a repeat call within the window edits this card). */
async function saveNewModcall(
  deps: NotePostedDeps,
  { guildId, channelId, messageId }: PostedMessage,
  entry: RenderedEntry,
  event: EventOf<'modcall'>,
): Promise<void> {
  // Pinged in its text instead of the role (on-duty-first): the role, written down apart, is pinged later by the
  // escalator. (A message written down by an earlier version allowed the role it did not name.)
  const pingRoleId = entry.deferredRoleId ?? entry.payload.allowed_mentions.roles?.[0] ?? null;
  const pingedOnDuty = entry.payload.allowed_mentions.users ?? [];
  const postedAt = deps.clock();
  const card = await deps.documents.updateModcall(guildId, messageId, (current) => {
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
      ...(pingedOnDuty.length > 0 ? { pingedOnDuty: [...pingedOnDuty] } : {}),
    };
  });
  const { robloxId } = event.data.caller;
  await deps.documents.saveLatestCall(guildId, event.server, robloxId, messageId, card?.postedAt ?? postedAt);
}
