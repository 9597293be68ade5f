/**
 * The longest wait a `retry-after` is taken for. The service's limits are per minute and per hour (§8), so a
 * longer one is a mistake of the sender's, not a plan; and a timer of more than 2^31 ms (about 24.8 days) would
 * fire at once instead of waiting.
 */
export const MAX_RETRY_AFTER_SECONDS = 3600;

/**
 * Reads an HTTP `retry-after` header (RFC 9110 §10.2.3): either whole seconds or an HTTP date.
 *
 * @param header the header's value, as received
 * @param now milliseconds since the Unix epoch, used to turn a date into seconds
 * @returns whole seconds to wait, at most {@link MAX_RETRY_AFTER_SECONDS} (a date in the past gives 0), or
 *   `undefined` when the header is absent or unreadable: a guess would tell the user a wrong number, so we
 *   prefer saying nothing.
 */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (/^\d{1,10}$/.test(value)) return Math.min(Number(value), MAX_RETRY_AFTER_SECONDS);
  // Date.parse also accepts loose forms such as "2024"; an HTTP date always names a weekday and a time.
  if (!/^[A-Za-z]{3,9},? .*\d{2}:\d{2}:\d{2}/.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(Math.max(0, Math.ceil((at - now) / 1000)), MAX_RETRY_AFTER_SECONDS);
}
