import { randomBytes, randomUUID } from 'node:crypto';

import type { ServiceEvent } from '../../src/upstream/schemas.js';
import { FRESHNESS_WINDOW_SECONDS } from '../../src/upstream/signature.js';
import { signedHeaders, type DeliveryRequest } from './post-delivery.js';

/**
 * A delivery the endpoint must refuse, and how (DESIGN.md intake rules; docs/hosting.md, "How a delivery flows",
 * "Answers").
 */
export interface BadDelivery {
  name: string;
  /** What is wrong with it, for the printed table. */
  what: string;
  expectedStatus: number;
  /** The intake's own error code; other endpoints may name it differently, so only the status decides. */
  expectedCode: string;
  request: DeliveryRequest;
}

export interface BadDeliveryOptions {
  url: string;
  /**
   * The webhook's secret. Without it, the cases that need a valid signature (a signed body that is not JSON or
   * not an envelope) are left out, and the others are signed with a made-up secret: they are refused whatever
   * the secret.
   */
  secret: string | undefined;
  /** A realistic event to spoil. */
  sample: ServiceEvent;
  /** Now, in ms. */
  now: number;
}

/** Bodies over this are refused before verification (the intake's MAX_BODY_BYTES). */
const OVERSIZE_BYTES = 1024 * 1024 + 1;

/** The same address with another, random hookId: an address nobody registered. */
export function unknownHookUrl(url: string): string {
  const parsed = new URL(url);
  const segments = parsed.pathname.split('/');
  segments[segments.length - 1] = randomBytes(16).toString('hex');
  parsed.pathname = segments.join('/');
  return parsed.href;
}

/**
 * Deliveries a correct receiver refuses: unsigned, stale, from the future, tampered, wrong secret, malformed
 * headers, a signed body that is not JSON or not an envelope, too large, and an unknown address. Each carries a
 * fresh delivery id, so none can be mistaken for an earlier good one.
 */
export function badDeliveries(options: BadDeliveryOptions): BadDelivery[] {
  const { url, sample } = options;
  const secret = options.secret ?? randomBytes(24).toString('hex');
  const nowSeconds = Math.floor(options.now / 1000);
  const body = (extra: Partial<ServiceEvent> = {}) =>
    JSON.stringify({ ...sample, id: `dlv_sim_bad_${randomUUID()}`, ...extra });
  const signed = (payload: string, signWith = secret, at = nowSeconds) =>
    signedHeaders(sample.event, payload, signWith, at);
  const stale = FRESHNESS_WINDOW_SECONDS + 60;

  const unsignedBody = body();
  const noTimestampBody = body();
  const malformedBody = body();
  const tamperedBody = body();
  const moved = tamperedBody.replace(/"at":(\d+)/, (_, at: string) => `"at":${Number(at) + 1}`);
  const tampered = moved === tamperedBody ? `${tamperedBody} ` : moved;
  const wrongSecretBody = body();
  const staleBody = body();
  const futureBody = body();
  const notJson = `{"id":"dlv_sim_bad_${randomUUID()}","event":`;
  const notEnvelope = JSON.stringify({ event: sample.event, data: sample.data });
  const oversize = JSON.stringify({
    ...sample,
    id: `dlv_sim_bad_${randomUUID()}`,
    padding: 'x'.repeat(OVERSIZE_BYTES),
  });
  const unknownBody = body();

  const withoutHeader = (headers: Record<string, string>, name: string) =>
    Object.fromEntries(Object.entries(headers).filter(([key]) => key !== name));

  const cases: Array<BadDelivery & { needsSecret?: true }> = [
    {
      name: 'unsigned',
      what: 'no x-service-signature header',
      expectedStatus: 401,
      expectedCode: 'missing_signature',
      request: { url, headers: withoutHeader(signed(unsignedBody), 'x-service-signature'), body: unsignedBody },
    },
    {
      name: 'no-timestamp',
      what: 'no x-service-timestamp header',
      expectedStatus: 401,
      expectedCode: 'missing_timestamp',
      request: { url, headers: withoutHeader(signed(noTimestampBody), 'x-service-timestamp'), body: noTimestampBody },
    },
    {
      name: 'malformed-signature',
      what: 'signature in upper-case hex',
      expectedStatus: 401,
      expectedCode: 'malformed_signature',
      request: {
        url,
        headers: (() => {
          const headers = signed(malformedBody);
          headers['x-service-signature'] = `sha256=${(headers['x-service-signature'] ?? '').slice(7).toUpperCase()}`;
          return headers;
        })(),
        body: malformedBody,
      },
    },
    {
      name: 'stale',
      what: `signed ${stale} s ago (a replay)`,
      expectedStatus: 401,
      expectedCode: 'stale_timestamp',
      request: { url, headers: signed(staleBody, secret, nowSeconds - stale), body: staleBody },
    },
    {
      name: 'future',
      what: `timestamp ${stale} s ahead`,
      expectedStatus: 401,
      expectedCode: 'stale_timestamp',
      request: { url, headers: signed(futureBody, secret, nowSeconds + stale), body: futureBody },
    },
    {
      name: 'tampered',
      what: 'body changed after signing',
      expectedStatus: 401,
      expectedCode: 'signature_mismatch',
      request: { url, headers: signed(tamperedBody), body: tampered },
    },
    {
      name: 'wrong-secret',
      what: 'signed with another secret',
      expectedStatus: 401,
      expectedCode: 'signature_mismatch',
      request: { url, headers: signed(wrongSecretBody, randomBytes(24).toString('hex')), body: wrongSecretBody },
    },
    {
      name: 'not-json',
      what: 'signed, but the body is cut-off JSON',
      expectedStatus: 400,
      expectedCode: 'invalid_json',
      needsSecret: true,
      request: { url, headers: signed(notJson), body: notJson },
    },
    {
      name: 'not-an-envelope',
      what: 'signed JSON without a delivery id',
      expectedStatus: 400,
      expectedCode: 'invalid_envelope',
      needsSecret: true,
      request: { url, headers: signed(notEnvelope), body: notEnvelope },
    },
    {
      name: 'too-large',
      what: 'body over 1 MiB',
      expectedStatus: 413,
      expectedCode: 'payload_too_large',
      request: { url, headers: signed(oversize), body: oversize },
    },
    {
      name: 'unknown-address',
      what: 'signed, sent to a webhook address nobody registered',
      expectedStatus: 404,
      expectedCode: 'unknown_hook',
      request: { url: unknownHookUrl(url), headers: signed(unknownBody), body: unknownBody },
    },
  ];
  return cases
    .filter((item) => options.secret !== undefined || item.needsSecret !== true)
    .map(({ needsSecret: _, ...item }) => item);
}
