import { createHash } from 'node:crypto';

import type { NewDelivery } from '../../store/deliveries.js';

/** Discord accepts nonces of up to 25 characters. */
const NONCE_LENGTH = 25;

/**
 * The nonce of a message, derived from the deliveries it carries: the same entries always give the same
 * nonce, so a send retried after a timeout (or after a restart) is recognised by Discord (enforce_nonce).
 */
export function nonceForEntries(entries: readonly Pick<NewDelivery, 'hookId' | 'deliveryId'>[]): string {
  const hash = createHash('sha256');
  for (const entry of entries) hash.update(`${entry.hookId}\u0000${entry.deliveryId}\u0000`);
  return hash.digest('base64url').slice(0, NONCE_LENGTH);
}

/**
 * The nonce of a card, alert or reply the bot posts: made from what the message is about (a version and its
 * outcome, an incident, a modcall's escalation), so a retry of the same message always carries the same nonce.
 */
export function makeCardNonce(parts: readonly string[]): string {
  return createHash('sha256').update(parts.join('\u0000')).digest('base64url').slice(0, NONCE_LENGTH);
}
