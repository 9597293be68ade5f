import type { RenderedEntry } from '../../feed/card-plan.js';
import { classifyEntry } from '../../feed/render-entry.js';
import type { ServiceEvent } from '../../upstream/schemas.js';
import type { Ending } from './final-state.js';
import { subjectOf } from './subjects.js';

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
