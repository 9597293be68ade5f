import type { BackoffPolicy } from '../../base/backoff.js';
import type { BotParts, Feature } from '../feature.js';
import { recordOf } from '../record/index.js';
import type { SessionCardPosted } from '../threads/index.js';
import { CardDocuments } from './card-documents.js';
import { FeedCards } from './feed-cards.js';
import type { ModcallCard } from './modcall-card.js';
import { ModcallEscalator } from './modcall-escalator.js';
import { recordModcallHandling } from './record-modcall.js';
import { sessionSubject } from './subjects.js';

/** A case, session or shift card is followed (edited by its later events) this long after it was posted. */
const CARDS_FOLLOWED_MS = 30 * 24 * 60 * 60 * 1000;

/** The unit of /feed mention escalate-after (a minute), and how often it is checked; tests shorten them. */
export interface EscalationTimings {
  minuteMs?: number;
  checkEveryMs?: number;
  /** How long a card whose look failed waits for the next (default 15 s doubling to 10 min). */
  backoff?: BackoffPolicy;
}

/** What /feed mention and the modcall cards' Claim and Resolve use. */
export interface CardsDeps {
  /** Modcall cards (Claim, Resolve) and escalation settings. */
  cards: CardDocuments;
  /** Tells the community record of a claim or resolution, once the card has it (and of the card's calls). */
  recordModcallHandling: (card: ModcallCard) => Promise<void>;
}

/** What the cards tell other features (wired in src/features/index.ts). */
export interface CardsListeners {
  /** A session's card was confirmed by Discord. */
  onSessionCard?: (card: SessionCardPosted) => Promise<void>;
  /** A modcall's claim or resolution, or a call counted on its card, reached the community record. */
  onModcallHandled?: (guildId: string) => void;
}

/** Where a session's card is, for a thread opened from it after the card was posted. */
export interface SessionCardPlace {
  channelId: string;
  messageId: string;
  postedAt: number;
}

/** The cards, and what other features may ask of them (wired in src/features/index.ts). */
export interface CardsFeature extends Feature<CardsDeps> {
  /** A session's card while it is followed (30 days), or undefined when none was posted or it was forgotten. */
  sessionCardOf(guildId: string, server: string, sessionId: number): Promise<SessionCardPlace | undefined>;
}

/**
 * The living feed: modcall cards staff claim and resolve, cards edited when a case is voided or a session or
 * shift ends, and the escalation of a modcall nobody claims.
 */
export function createCardsFeature(
  parts: BotParts,
  timings: EscalationTimings = {},
  listeners: CardsListeners = {},
): CardsFeature {
  const { clock, logger } = parts;
  const cards = new CardDocuments(parts.store.documents);
  const record = recordOf(parts.store);
  const recordHandling = recordModcallHandling(record, logger);
  const noteCard = async (card: ModcallCard) => {
    await recordHandling(card);
    listeners.onModcallHandled?.(card.guildId);
  };
  return {
    deps: { cards, recordModcallHandling: noteCard },
    feedCards: new FeedCards({
      documents: cards,
      community: record,
      poster: parts.poster,
      clock,
      logger,
      noteModcallCard: noteCard,
      onSessionCard: listeners.onSessionCard,
    }),
    jobs: [
      new ModcallEscalator({
        documents: cards,
        poster: parts.poster,
        findPosted: parts.findPosted,
        nonceWindowMs: parts.nonceWindowMs,
        clock,
        timers: parts.timers,
        logger,
        onBackoff: () => parts.metrics.guildBackoff('modcall_escalation'),
        ...timings,
      }),
    ],
    sweep: (now) => cards.sweep(now - CARDS_FOLLOWED_MS),
    sessionCardOf: async (guildId, server, sessionId) => {
      const card = await cards.subject(guildId, sessionSubject(server, sessionId));
      return card && { channelId: card.channelId, messageId: card.messageId, postedAt: card.postedAt };
    },
  };
}
