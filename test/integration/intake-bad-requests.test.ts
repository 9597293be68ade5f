import { createHmac } from 'node:crypto';
import { once } from 'node:events';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { renderEntry } from '../../src/feed/render-entry.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { HOOK_SECRET, startIntakeHarness, type IntakeHarness } from '../helpers/intake-harness.js';
import { anyString } from '../helpers/matchers.js';

let h: IntakeHarness;
beforeAll(async () => {
  h = await startIntakeHarness();
});
afterAll(async () => {
  await h.stop();
});

const body = JSON.stringify(SAMPLE_DELIVERIES.modcall);
const nowSeconds = () => Math.floor(h.now.ms / 1000);
const signedHeaders = (overrides: Record<string, string | undefined> = {}, payload: string = body) => {
  const timestamp = String(nowSeconds());
  const headers: Record<string, string | undefined> = {
    'content-type': 'application/json',
    'x-service-timestamp': timestamp,
    'x-service-signature': signDelivery(HOOK_SECRET, timestamp, payload),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>;
};
const validHex = () => signDelivery(HOOK_SECRET, nowSeconds(), body).slice('sha256='.length);

interface BadCase {
  name: string;
  send: () => Promise<Response>;
  status: number;
  code: string;
}

const badCases: BadCase[] = [
  {
    name: 'missing signature header',
    status: 401,
    code: 'missing_signature',
    send: () => h.post(body, signedHeaders({ 'x-service-signature': undefined })),
  },
  {
    name: 'missing timestamp header',
    status: 401,
    code: 'missing_timestamp',
    send: () => h.post(body, signedHeaders({ 'x-service-timestamp': undefined })),
  },
  {
    name: 'prefix missing',
    status: 401,
    code: 'malformed_signature',
    send: () => h.post(body, signedHeaders({ 'x-service-signature': validHex() })),
  },
  {
    name: 'prefix misspelled',
    status: 401,
    code: 'malformed_signature',
    send: () => h.post(body, signedHeaders({ 'x-service-signature': `sha265=${validHex()}` })),
  },
  {
    name: 'uppercase hex',
    status: 401,
    code: 'malformed_signature',
    send: () => h.post(body, signedHeaders({ 'x-service-signature': `sha256=${validHex().toUpperCase()}` })),
  },
  {
    name: 'signature one character short',
    status: 401,
    code: 'malformed_signature',
    send: () => h.post(body, signedHeaders({ 'x-service-signature': `sha256=${validHex().slice(1)}` })),
  },
  {
    name: 'signature one character long',
    status: 401,
    code: 'malformed_signature',
    send: () => h.post(body, signedHeaders({ 'x-service-signature': `sha256=${validHex()}0` })),
  },
  {
    name: 'non-ASCII signature of the right character length',
    status: 401,
    code: 'malformed_signature',
    send: () => h.post(body, signedHeaders({ 'x-service-signature': `sha256=${validHex().slice(1)}é` })),
  },
  {
    name: 'signature made with another secret',
    status: 401,
    code: 'signature_mismatch',
    send: () => {
      const ts = String(nowSeconds());
      return h.post(
        body,
        signedHeaders({ 'x-service-timestamp': ts, 'x-service-signature': signDelivery('another-secret', ts, body) }),
      );
    },
  },
  {
    name: 'tampered body under a well-formed signature',
    status: 401,
    code: 'signature_mismatch',
    send: () => h.post(body.replace('helpme_pls', 'helpme_plz'), signedHeaders()),
  },
  {
    name: 'body re-serialized with other whitespace',
    status: 401,
    code: 'signature_mismatch',
    send: () => h.post(JSON.stringify(JSON.parse(body), null, 2), signedHeaders()),
  },
  {
    name: 'timestamp 300 s old',
    status: 401,
    code: 'stale_timestamp',
    send: () => {
      const ts = String(nowSeconds() - 300);
      return h.post(
        body,
        signedHeaders({ 'x-service-timestamp': ts, 'x-service-signature': signDelivery(HOOK_SECRET, ts, body) }),
      );
    },
  },
  {
    name: 'timestamp 300 s ahead',
    status: 401,
    code: 'stale_timestamp',
    send: () => {
      const ts = String(nowSeconds() + 300);
      return h.post(
        body,
        signedHeaders({ 'x-service-timestamp': ts, 'x-service-signature': signDelivery(HOOK_SECRET, ts, body) }),
      );
    },
  },
  ...['123abc', '-5', '1.5e9'].map((ts) => ({
    name: `timestamp ${ts}`,
    status: 401,
    code: 'malformed_timestamp',
    send: () =>
      h.post(
        body,
        signedHeaders({ 'x-service-timestamp': ts, 'x-service-signature': signDelivery(HOOK_SECRET, ts, body) }),
      ),
  })),
  {
    name: 'empty timestamp',
    status: 401,
    code: 'missing_timestamp',
    send: () => h.post(body, signedHeaders({ 'x-service-timestamp': '' })),
  },
  {
    name: 'timestamp signed for another value (signature covers the timestamp)',
    status: 401,
    code: 'signature_mismatch',
    send: () => {
      const ts = String(nowSeconds());
      return h.post(
        body,
        signedHeaders({
          'x-service-timestamp': String(nowSeconds() - 1),
          'x-service-signature': signDelivery(HOOK_SECRET, ts, body),
        }),
      );
    },
  },
  { name: 'empty body', status: 400, code: 'invalid_json', send: () => h.postSigned('') },
  {
    name: 'signed body that is not JSON',
    status: 400,
    code: 'invalid_json',
    send: () => h.postSigned('event=modcall&id=1'),
  },
  {
    name: 'signed JSON array',
    status: 400,
    code: 'invalid_envelope',
    send: () => h.postSigned(JSON.stringify([SAMPLE_DELIVERIES.modcall])),
  },
  { name: 'signed JSON string', status: 400, code: 'invalid_envelope', send: () => h.postSigned(JSON.stringify(body)) },
  {
    name: 'signed object without an id',
    status: 400,
    code: 'invalid_envelope',
    send: () => h.postSigned(JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: undefined })),
  },
  {
    name: 'signed envelope whose id is over 256 characters',
    status: 400,
    code: 'envelope_field_too_long',
    send: () => h.postSigned(JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'i'.repeat(257) })),
  },
  {
    name: 'signed envelope whose event is over 64 characters',
    status: 400,
    code: 'envelope_field_too_long',
    send: () => h.postSigned(JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'long-event', event: 'e'.repeat(65) })),
  },
  {
    name: 'signed envelope whose server is over 64 characters',
    status: 400,
    code: 'envelope_field_too_long',
    send: () =>
      h.postSigned(JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'long-server', server: '1'.repeat(65) })),
  },
  {
    name: 'signed envelope whose id carries NUL',
    status: 400,
    code: 'envelope_field_control_character',
    send: () => h.postSigned(JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'nul\u0000id' })),
  },
  {
    name: 'signed envelope whose server carries a line feed',
    status: 400,
    code: 'envelope_field_control_character',
    send: () => h.postSigned(JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'lf-server', server: '12\n3' })),
  },
  {
    name: 'body over 1 MiB',
    status: 413,
    code: 'payload_too_large',
    send: () => {
      const big = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'big', pad: 'x'.repeat(1024 * 1024) });
      return h.postSigned(big);
    },
  },
  {
    name: 'unknown hookId',
    status: 404,
    code: 'unknown_hook',
    send: () => h.post(body, signedHeaders(), 'f'.repeat(32)),
  },
  {
    name: 'hookId that looks like a prototype key',
    status: 404,
    code: 'unknown_hook',
    send: () => h.post(body, signedHeaders(), '__proto__'),
  },
  {
    name: 'signature over the body without the timestamp',
    status: 401,
    code: 'signature_mismatch',
    send: () =>
      h.post(
        body,
        signedHeaders({
          'x-service-signature': `sha256=${createHmac('sha256', HOOK_SECRET).update(body).digest('hex')}`,
        }),
      ),
  },
];

describe('the intake refuses what the service did not sign', () => {
  it('has at least 25 bad requests', () => {
    expect(badCases.length).toBeGreaterThanOrEqual(25);
  });

  it.each(badCases)('$name -> $status $code, nothing stored, still serving', async ({ send, status, code }) => {
    const before = await h.bot.store.deliveries.listOpen();
    const response = await send();
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({ error: { code, message: anyString() } });
    expect(await h.bot.store.deliveries.listOpen()).toEqual(before);
    expect((await h.bot.store.deliveries.stateOf(h.hookId, SAMPLE_DELIVERIES.modcall.id)) === 'posted').toBe(false);
    const health = await fetch(`${h.bot.http.url}/healthz`);
    expect(health.status).toBe(200);
  });
});

describe('edges the intake accepts', () => {
  it.each([
    ['299 s old', -299],
    ['299 s ahead', 299],
  ])('a timestamp %s is accepted', async (_label, offset) => {
    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: `fresh${offset}` });
    const response = await h.postSigned(payload, { timestamp: String(nowSeconds() + offset) });
    expect(response.status).toBe(204);
    expect((await h.bot.store.deliveries.stateOf(h.hookId, `fresh${offset}`)) !== undefined).toBe(true);
  });

  it('takes an envelope whose id, event and server are as long as allowed, refuses one character more', async () => {
    const id = 'i'.repeat(256);
    const longest = { ...SAMPLE_DELIVERIES.modcall, id, event: 'e'.repeat(64), server: '1'.repeat(64) };
    for (const field of ['id', 'event', 'server'] as const) {
      const over = JSON.stringify({ ...longest, [field]: `${longest[field]}x` });
      const refused = await h.postSigned(over);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({
        error: { code: 'envelope_field_too_long', message: expect.stringContaining(`"${field}"`) as string },
      });
    }
    expect((await h.postSigned(JSON.stringify(longest))).status).toBe(204);
    expect(await h.bot.store.deliveries.stateOf(h.hookId, id)).not.toBeUndefined();
    const numeric = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'numeric-server', server: 4821337 });
    expect((await h.postSigned(numeric)).status).toBe(204);
  });

  it('takes a delivery whose data carries NUL and other control characters, its body stored as signed', async () => {
    const call = SAMPLE_DELIVERIES['case.created'];
    const payload = JSON.stringify({
      ...call,
      id: 'controls-in-data',
      data: { case: { ...call.data.case, type: 'w\u0000arn', reason: 'spam\u0000\u0007\tand\nmore' } },
    });
    expect((await h.postSigned(payload)).status).toBe(204);
    const entry = (await h.bot.store.deliveries.listOpen()).find((e) => e.deliveryId === 'controls-in-data');
    expect(entry?.rawBody).toBe(payload);
    // The case type a rule may name loses the control character.
    expect(entry?.caseType).toBe('warn');
  });

  it('keeps __proto__ and constructor keys inside data as data, polluting nothing', async () => {
    const payload = `{"id":"proto1","event":"modcall","server":"1","at":1,"data":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}},"caller":{"robloxId":"1","name":"x"},"at":1}}`;
    const response = await h.postSigned(payload);
    expect(response.status).toBe(204);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((Object.prototype as Record<string, unknown>).polluted).toBeUndefined();
    const entry = (await h.bot.store.deliveries.listOpen()).find((e) => e.deliveryId === 'proto1');
    expect(entry?.rawBody).toBe(payload);
  });

  it('keeps deeply nested JSON and keeps serving', async () => {
    const depth = 5000;
    const payload = `{"id":"deep1","event":"case.created","server":"1","at":1,"data":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`;
    const response = await h.postSigned(payload);
    expect(response.status).toBe(204);
    const entry = (await h.bot.store.deliveries.listOpen()).find((e) => e.deliveryId === 'deep1');
    expect(entry && renderEntry(entry, { channelId: '1' }).embeds[0]?.title).toBe('Unexpected data · case.created');
    expect((await fetch(`${h.bot.http.url}/healthz`)).status).toBe(200);
  });

  it('accepts a delivery whatever its Content-Type says', async () => {
    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'ctype1' });
    const ts = String(nowSeconds());
    const response = await h.post(payload, {
      'content-type': 'text/plain',
      'x-service-timestamp': ts,
      'x-service-signature': signDelivery(HOOK_SECRET, ts, payload),
    });
    expect(response.status).toBe(204);
  });

  it('answers the same delivery id twice with 2xx and keeps one entry', async () => {
    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'twice1' });
    expect((await h.postSigned(payload)).status).toBe(204);
    const second = await h.postSigned(payload);
    expect(second.status).toBe(200);
    expect(await second.json()).toEqual({ status: 'duplicate' });
    expect((await h.bot.store.deliveries.listOpen()).filter((e) => e.deliveryId === 'twice1')).toHaveLength(1);
  });

  it('keeps the first body when the same id comes with a different body', async () => {
    const first = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'twice2' });
    const second = JSON.stringify({ ...SAMPLE_DELIVERIES['case.created'], id: 'twice2' });
    expect((await h.postSigned(first)).status).toBe(204);
    expect((await h.postSigned(second)).status).toBe(200);
    const entries = (await h.bot.store.deliveries.listOpen()).filter((e) => e.deliveryId === 'twice2');
    expect(entries.map((e) => e.rawBody)).toEqual([first]);
  });

  it('turns two concurrent copies of one delivery into one entry', async () => {
    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'race1' });
    const answers = await Promise.all(Array.from({ length: 8 }, () => h.postSigned(payload)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 204]);
    expect((await h.bot.store.deliveries.listOpen()).filter((e) => e.deliveryId === 'race1')).toHaveLength(1);
  });

  it('never logs the secret or a signature', () => {
    const logged = h.logs.text();
    expect(logged).not.toContain(HOOK_SECRET);
    expect(logged).not.toMatch(/sha256=[0-9a-f]{64}/);
  });
});

describe('bodies the intake does not read', () => {
  it('refuses a compressed body with 415 and stores nothing', async () => {
    const before = await h.bot.store.deliveries.countOpen();
    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'gz1' });
    const response = await h.post(payload, { ...signedHeaders({}, payload), 'content-encoding': 'gzip' });
    expect(response.status).toBe(415);
    expect(await response.json()).toEqual({ error: { code: 'unsupported_encoding', message: anyString() } });
    expect(await h.bot.store.deliveries.countOpen()).toBe(before);
  });

  it('refuses an oversized body sent without Content-Length (chunked) with 413', async () => {
    const big = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 20; i += 1) controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
        controller.close();
      },
    });
    const response = await fetch(`${h.bot.http.url}/webhooks/${h.hookId}`, {
      method: 'POST',
      headers: signedHeaders(),
      body: big,
      duplex: 'half',
    });
    expect(response.status).toBe(413);
    expect((await fetch(`${h.bot.http.url}/healthz`)).status).toBe(200);
  });

  it('stores nothing from a client that goes away mid-body, and keeps serving', async () => {
    const before = await h.bot.store.deliveries.listOpen();
    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'cut1' });
    const headers = signedHeaders({}, payload);
    const { hostname, port } = new URL(h.bot.http.url);
    const socket = connect(Number(port), hostname);
    await once(socket, 'connect');
    const head = [
      `POST /webhooks/${h.hookId} HTTP/1.1`,
      `Host: ${hostname}`,
      `Content-Length: ${Buffer.byteLength(payload)}`,
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    // Half the body, then the connection drops: the handler must give up on it, not wait or store a part.
    socket.write(`${head.join('\r\n')}\r\n\r\n${payload.slice(0, payload.length / 2)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    await once(socket, 'close');

    expect((await fetch(`${h.bot.http.url}/healthz`)).status).toBe(200);
    expect(await h.bot.store.deliveries.listOpen()).toEqual(before);
    expect((await h.postSigned(payload)).status).toBe(204);
  });
});
