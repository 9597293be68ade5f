import { createHmac, timingSafeEqual } from 'node:crypto';

/** Deliveries whose timestamp is this far from now, or further, in the past or the future, are refused (§5.8). */
export const FRESHNESS_WINDOW_SECONDS = 300;

const SIGNATURE_PREFIX = 'sha256=';
const SIGNATURE_PATTERN = /^sha256=[0-9a-f]{64}$/;
const TIMESTAMP_PATTERN = /^[0-9]{1,15}$/;
/** Byte length of a well-formed header: the prefix and 64 hex digits. */
const SIGNATURE_BYTES = SIGNATURE_PREFIX.length + 64;

/** Milliseconds since the Unix epoch; injectable so tests can move time. */
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

/** Why a delivery was refused; each maps to one error code of the intake. */
export type SignatureFailure =
  | 'missing_signature'
  | 'malformed_signature'
  | 'missing_timestamp'
  | 'malformed_timestamp'
  | 'stale_timestamp'
  | 'signature_mismatch';

export type VerifyResult = { ok: true } | { ok: false; reason: SignatureFailure };

export interface VerifyInput {
  secret: string;
  /** The body exactly as received, before any parsing. */
  rawBody: Buffer;
  signatureHeader: string | undefined;
  timestampHeader: string | undefined;
  /** Milliseconds since the Unix epoch. */
  now: number;
}

/** `sha256=` + lowercase hex HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the webhook secret (§4.3). */
export function signDelivery(secret: string, timestamp: string | number, rawBody: Buffer | string): string {
  return SIGNATURE_PREFIX + computeDigest(secret, timestamp, rawBody).toString('hex');
}

/**
 * Checks a delivery's signature and freshness (upstream-api.md §5.8, DESIGN.md intake rules).
 * Pure: the clock is an argument. Cheap checks come first, so malformed input never reaches the HMAC.
 */
export function verifyDelivery(input: VerifyInput): VerifyResult {
  const { signatureHeader, timestampHeader } = input;
  if (!signatureHeader) return fail('missing_signature');
  if (!timestampHeader) return fail('missing_timestamp');
  if (!TIMESTAMP_PATTERN.test(timestampHeader)) return fail('malformed_timestamp');
  // A non-ASCII header can have the right character count but not the right byte count: compare bytes.
  if (Buffer.byteLength(signatureHeader, 'utf8') !== SIGNATURE_BYTES || !SIGNATURE_PATTERN.test(signatureHeader)) {
    return fail('malformed_signature');
  }
  const ageSeconds = Math.abs(input.now / 1000 - Number(timestampHeader));
  if (ageSeconds >= FRESHNESS_WINDOW_SECONDS) return fail('stale_timestamp');

  // Compared as the 32 digest bytes: the header's hex decodes once, and the HMAC is never hex-encoded.
  const givenDigest = Buffer.from(signatureHeader.slice(SIGNATURE_PREFIX.length), 'hex');
  const expectedDigest = computeDigest(input.secret, timestampHeader, input.rawBody);
  if (expectedDigest.length !== givenDigest.length || !timingSafeEqual(expectedDigest, givenDigest)) {
    return fail('signature_mismatch');
  }
  return { ok: true };
}

function computeDigest(secret: string, timestamp: string | number, rawBody: Buffer | string): Buffer {
  const hmac = createHmac('sha256', secret);
  hmac.update(`${timestamp}.`);
  hmac.update(rawBody);
  return hmac.digest();
}

function fail(reason: SignatureFailure): VerifyResult {
  return { ok: false, reason };
}
