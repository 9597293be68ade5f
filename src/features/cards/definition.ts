import type { FeatureDefinition } from '../feature.js';
import { cardsInteractions } from './commands/index.js';
import { createCardsFeature, type CardsListeners, type EscalationTimings } from './feature.js';

/** What the living cards need of the others: who hears of a session's card and of a handled modcall. */
export interface CardsNeeds {
  timings: EscalationTimings | undefined;
  listeners: CardsListeners;
}

/** The living cards, as the features' list takes them: the modcall cards' Claim and Resolve buttons. */
export const cardsDefinition: FeatureDefinition<ReturnType<typeof createCardsFeature>, CardsNeeds> = {
  interactions: cardsInteractions,
  create: (parts, { timings, listeners }) => createCardsFeature(parts, timings, listeners),
};
