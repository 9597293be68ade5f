import type { BotParts, Feature } from '../feature.js';
import { CardRecords } from './card-records.js';
import { FeedCards } from './feed-cards.js';
import type { ModcallCard } from './modcall-card.js';
import { ModcallEscalator } from './modcall-escalator.js';
import { recordModcallHandling } from './record-modcall.js';

/** A case, session or shift card is followed (edited by its later events) this long after it was posted. */
const CARDS_FOLLOWED_MS = 30 * 24 * 60 * 60 * 1000;

/** The unit of /feed mention escalate-after (a minute), and how often it is checked; tests shorten them. */
export interface EscalationTimings {
  minuteMs?: number;
  checkEveryMs?: number;
}

/** What /feed mention and the modcall cards' Claim and Resolve use. */
export interface CardsDeps {
  /** Modcall cards (Claim, Resolve) and escalation settings. */
  cards: CardRecords;
  /** Tells the community record of a claim or resolution, once the card has it. */
  recordModcallHandling: (card: ModcallCard) => Promise<void>;
}

/**
 * The living feed: modcall cards staff claim and resolve, cards edited when a case is voided or a session or
 * shift ends, and the escalation of a modcall nobody claims.
 */
export function createCardsFeature(parts: BotParts, timings: EscalationTimings = {}): Feature<CardsDeps> {
  const { clock, logger } = parts;
  const cards = new CardRecords(parts.store.records);
  return {
    deps: { cards, recordModcallHandling: recordModcallHandling(parts.store.community, logger) },
    feedCards: new FeedCards({ records: cards, community: parts.store.community, poster: parts.poster, clock, logger }),
    jobs: [
      new ModcallEscalator({ records: cards, poster: parts.poster, clock, timers: parts.timers, logger, ...timings }),
    ],
    sweep: (now) => cards.sweep(now - CARDS_FOLLOWED_MS),
  };
}
