import type { MessagePayload } from '../embeds/types.js';
import { classifyEntry } from '../feed/render-entry.js';
import type { QueuedEntry } from '../store/deliveries.js';
import type { ServiceEvent } from '../upstream/schemas.js';
import type { Ending } from './final-state.js';
import { subjectOf } from './subjects.js';

/** One entry of the lane with the message it renders to. */
export interface RenderedEntry {
  item: QueuedEntry;
  payload: MessagePayload;
  /** The payload already shows its subject's final state (a case drawn voided): nothing to edit once posted. */
  settled?: boolean;
}

/** What an entry is, read once per plan: its event (when it parses) and the card subject it opens or ends. */
export interface EntryFacts {
  rendered: RenderedEntry;
  event: ServiceEvent | undefined;
  subject: ReturnType<typeof subjectOf>;
}

/** Reads an entry's facts (once per plan: classifying parses the stored body). */
export function readFacts(rendered: RenderedEntry): EntryFacts {
  const classified = classifyEntry(rendered.item);
  const event = classified.kind === 'event' ? classified.event : undefined;
  return { rendered, event, subject: subjectOf(classified) };
}

/** How a final event ends its card: the event, and the embeds it renders to on its own. */
export function endingOf(fact: EntryFacts): Ending {
  return { event: fact.event, embeds: fact.rendered.payload.embeds };
}
