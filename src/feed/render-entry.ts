import type { MessagePayload } from '../discord/message-payload.js';
import { renderDelivery } from '../embeds/render-delivery.js';
import type { NewDelivery } from '../store/deliveries.js';
import type { Route } from '../store/routing-rules.js';
import { readStoredBody } from '../upstream/read-stored-body.js';
import { classifyDelivery, EnvelopeSchema, type ClassifiedDelivery } from '../upstream/schemas.js';

/**
 * The message for one queued delivery. The store keeps the body exactly as signed; it is classified here, once,
 * so an entry stored by an older version renders with today's schemas.
 */
export function renderEntry(
  entry: Pick<NewDelivery, 'deliveryId' | 'event' | 'rawBody'>,
  route: Route,
): MessagePayload {
  const ctx = route.mentionRoleId ? { mentionRoleId: route.mentionRoleId } : {};
  return renderDelivery(classifyEntry(entry), ctx);
}

/** The stored delivery, classified with today's schemas. */
export function classifyEntry(entry: Pick<NewDelivery, 'deliveryId' | 'event' | 'rawBody'>): ClassifiedDelivery {
  const envelope = EnvelopeSchema.safeParse(readStoredBody(entry.rawBody));
  if (envelope.success) return classifyDelivery(envelope.data);
  // The intake checked the envelope before storing; this only happens to a record edited by hand.
  return {
    kind: 'mismatch',
    envelope: { id: entry.deliveryId, event: entry.event, data: entry.rawBody },
    problem: 'the stored body is not a delivery envelope',
  };
}
