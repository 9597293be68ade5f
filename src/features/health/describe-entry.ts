import { formatInlineCode, formatName } from '../../embeds/format.js';
import { formatPersonId } from '../../embeds/people.js';
import { classifyEntry } from '../../feed/render-entry.js';
import type { NewDelivery } from '../../store/deliveries.js';
import type { ServiceEvent } from '../../upstream/schemas.js';

/** Names and ids in a one-line description are cut to this: the line must leave room for its neighbours. */
const MAX_NAME_LENGTH = 40;
/** A delivery id is shown up to this; the service's are short, and a long one is still told apart by its start. */
const MAX_SHOWN_ID_LENGTH = 60;

/**
 * What a stored delivery is about, in one line an admin can tell it apart by: the case with its number and
 * target, the modcall's caller, the session or shift, and always the delivery id (as the service sent it).
 */
export function describeEntry(entry: Pick<NewDelivery, 'deliveryId' | 'event' | 'rawBody'>): string {
  const classified = classifyEntry(entry);
  const id = classified.kind === 'event' ? classified.event.id : classified.envelope.id;
  const delivery = `delivery ${formatInlineCode(id, MAX_SHOWN_ID_LENGTH)}`;
  switch (classified.kind) {
    case 'event':
      return `${describeEvent(classified.event)} · ${delivery}`;
    case 'mismatch':
      return `not in the documented shape · ${delivery}`;
    case 'other':
      return delivery;
  }
}

function describeEvent(event: ServiceEvent): string {
  switch (event.event) {
    case 'case.created': {
      const { number, type, target, moderator } = event.data.case;
      return `Case #${number} (${name(type)}) on ${name(target.name)} by ${name(moderator.name)}`;
    }
    case 'case.voided': {
      const { number, type, target, voidedBy } = event.data.case;
      return `Case #${number} (${name(type)}) on ${name(target.name)}, voided by ${formatPersonId(voidedBy)}`;
    }
    case 'session.started':
      return `Session #${event.data.session.id} ${name(event.data.session.name)} by ${name(event.data.session.startedBy.name)}`;
    case 'session.ended':
      return `Session #${event.data.session.id} ${name(event.data.session.name)}`;
    case 'modcall':
      return `Modcall from ${name(event.data.caller.name)}`;
    case 'shift.started':
    case 'shift.ended':
      return `Shift #${event.data.shift.id} of ${name(event.data.shift.name)}`;
  }
}

function name(text: string): string {
  return formatName(text, MAX_NAME_LENGTH);
}
