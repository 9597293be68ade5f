import { createHash } from 'node:crypto';

/**
 * Delivery ids up to this many UTF-8 bytes are stored as they are. PostgreSQL's unique index refuses a key over
 * about 2.7 kB, so a longer id is stored as its digest: accepted once and deduplicated all the same.
 */
export const MAX_STORED_ID_BYTES = 200;

/**
 * The key a delivery id is deduplicated by in the store: the id itself when short (every id stored so far keeps
 * its key), else `sha256:` and the hex digest of the id, 71 characters, which is short and so its own key.
 */
export function dedupeKeyOf(deliveryId: string): string {
  if (Buffer.byteLength(deliveryId, 'utf8') <= MAX_STORED_ID_BYTES) return deliveryId;
  return `sha256:${createHash('sha256').update(deliveryId, 'utf8').digest('hex')}`;
}
