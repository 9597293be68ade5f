import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';

import { signDelivery, verifyDelivery } from '../../../src/upstream/signature.js';

const secret = 'whsec_unit';
const body = Buffer.from('{"id":"1","event":"modcall"}');
const now = 1_790_000_000_000;
const ts = String(now / 1000);

describe('signDelivery', () => {
  it('is sha256= and the hex HMAC of "<timestamp>.<raw body>" (upstream-api.md §4.3)', () => {
    const expected = createHmac('sha256', secret).update(`${ts}.${body.toString()}`).digest('hex');
    expect(signDelivery(secret, ts, body)).toBe(`sha256=${expected}`);
  });
});

describe('verifyDelivery', () => {
  const verify = (overrides: Partial<Parameters<typeof verifyDelivery>[0]> = {}) =>
    verifyDelivery({
      secret,
      rawBody: body,
      signatureHeader: signDelivery(secret, ts, body),
      timestampHeader: ts,
      now,
      ...overrides,
    });

  it('accepts a correct signature', () => {
    expect(verify()).toEqual({ ok: true });
  });

  it('verifies the raw bytes, including bytes that are not valid UTF-8', () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    expect(verify({ rawBody: raw, signatureHeader: signDelivery(secret, ts, raw) })).toEqual({ ok: true });
    expect(
      verify({ rawBody: Buffer.from(raw.toString('utf8')), signatureHeader: signDelivery(secret, ts, raw) }),
    ).toEqual({
      ok: false,
      reason: 'signature_mismatch',
    });
  });

  it('refuses at exactly 300 s either way and accepts just inside', () => {
    const at = (offsetSeconds: number) => {
      const t = String(now / 1000 + offsetSeconds);
      return verify({ timestampHeader: t, signatureHeader: signDelivery(secret, t, body) });
    };
    expect(at(-300)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(at(300)).toEqual({ ok: false, reason: 'stale_timestamp' });
    expect(at(-299)).toEqual({ ok: true });
    expect(at(299)).toEqual({ ok: true });
  });

  it('refuses a malformed signature before computing anything', () => {
    expect(verify({ signatureHeader: 'sha256=' + 'é'.repeat(64) })).toEqual({
      ok: false,
      reason: 'malformed_signature',
    });
    expect(verify({ signatureHeader: '' })).toEqual({ ok: false, reason: 'missing_signature' });
    const good = signDelivery(secret, ts, body);
    // A digit outside lowercase hex in either half of a byte, a wrong prefix, a wrong length.
    for (const bad of [
      `${good.slice(0, 7)}g${good.slice(8)}`,
      `${good.slice(0, 8)}G${good.slice(9)}`,
      `${good.slice(0, 9)}/${good.slice(10)}`,
      `sha512=${good.slice(7)}`,
      good.slice(0, -1),
    ]) {
      expect(verify({ signatureHeader: bad })).toEqual({ ok: false, reason: 'malformed_signature' });
    }
  });

  it('refuses a delivery without a timestamp', () => {
    expect(verify({ timestampHeader: undefined })).toEqual({ ok: false, reason: 'missing_timestamp' });
    expect(verify({ timestampHeader: '' })).toEqual({ ok: false, reason: 'missing_timestamp' });
  });

  it('refuses timestamps that are not digits only', () => {
    for (const bad of ['1e9', ' 1790000000', '1790000000 ', '+1790000000', '0x10', '/', ':', '1'.repeat(16)]) {
      expect(verify({ timestampHeader: bad })).toEqual({ ok: false, reason: 'malformed_timestamp' });
    }
  });
});
