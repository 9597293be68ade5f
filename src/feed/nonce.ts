import { createHash } from 'node:crypto';

import type { NewDelivery } from '../store/deliveries.js';

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
