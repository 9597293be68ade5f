import { describe, expect, it } from 'vitest';

import { describePing, readServiceReport, type PingFacts } from '../../../src/features/webhooks/ping-result.js';

const base: PingFacts = {
  outcome: undefined,
  report: { delivered: undefined, status: undefined, enabled: undefined },
  elapsedMs: 0,
  webhook: 'wh_1',
  publicUrl: 'https://bot.example.com',
  timeoutMs: 10_000,
};

describe('readServiceReport', () => {
  it('reads what an answer says about the ping and the on/off state, and nothing from other shapes', () => {
    expect(readServiceReport({ ok: true, delivery: { id: 'd', ok: false, status: null } })).toEqual({
      delivered: false,
      status: undefined,
      enabled: undefined,
    });
    expect(readServiceReport({ delivery: { ok: true, status: 204 }, webhook: { enabled: false } })).toEqual({
      delivered: true,
      status: 204,
      enabled: false,
    });
    for (const answer of [undefined, null, 'ok', [1], { delivery: 'yes', enabled: 'maybe' }]) {
      expect(readServiceReport(answer)).toEqual({ delivered: undefined, status: undefined, enabled: undefined });
    }
  });
});

describe('describePing', () => {
  it('proves a verified ping with the time it took', () => {
    expect(describePing({ ...base, outcome: { ok: true, event: 'ping', at: 5 }, elapsedMs: 42 })).toBe(
      'Ping received and verified in 42 ms: webhook `wh_1` reaches this bot and its signature holds.',
    );
  });

  it('says the secret is out of date on a signature mismatch', () => {
    const text = describePing({ ...base, outcome: { ok: false, reason: 'signature_mismatch', at: 5 } });
    expect(text).toContain('secret stored here');
    expect(text).toContain('/webhook remove');
  });

  it('points at the clock on a stale timestamp', () => {
    expect(describePing({ ...base, outcome: { ok: false, reason: 'stale_timestamp', at: 5 } })).toContain('clock');
  });

  it('points at PUBLIC_URL and HTTPS when nothing arrived', () => {
    const text = describePing(base);
    expect(text).toContain('No ping reached this bot within 10 s');
    expect(text).toContain('https://bot.example.com reaches this bot over HTTPS');
    expect(describePing({ ...base, report: { delivered: false, status: 502, enabled: undefined } })).toContain(
      'got HTTP 502',
    );
    expect(describePing({ ...base, report: { delivered: false, status: undefined, enabled: undefined } })).toContain(
      'could not deliver it',
    );
    expect(describePing({ ...base, report: { delivered: true, status: 204, enabled: undefined } })).toContain(
      'not by this bot',
    );
  });

  it('says the webhook is switched off when the service says so', () => {
    expect(describePing({ ...base, report: { delivered: undefined, status: undefined, enabled: false } })).toContain(
      '/webhook enable',
    );
  });
});
