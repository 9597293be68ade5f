import { afterEach, describe, expect, it } from 'vitest';

import { startFakeService, type FakeService, type FakeServiceOptions } from '../../../fakes/service/index.js';
import {
  readHeader,
  startRecordingReceiver,
  type RecordingReceiver,
} from '../../../fakes/service/recording-receiver.js';
import { verifyDelivery } from '../../../src/upstream/signature.js';
import { anyNumber, anyString, stringMatching } from '../../helpers/matchers.js';

let fake: FakeService | undefined;
let receiver: RecordingReceiver | undefined;

afterEach(async () => {
  await Promise.all([fake?.close(), receiver?.close()]);
  fake = undefined;
  receiver = undefined;
});

async function start(options: FakeServiceOptions = { allowHttp: true }): Promise<FakeService> {
  fake = await startFakeService(options);
  return fake;
}

async function post(service: FakeService, path: string, key: string | undefined, body?: unknown) {
  const headers: Record<string, string> = {};
  if (key !== undefined) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${service.baseUrl}/api/server/v2${path}`, {
    method: 'POST',
    headers,
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const hookBody = { url: 'https://bot.example.com/webhooks/abc', events: ['case.created', 'modcall'] };

describe('keys (§5)', () => {
  it('issues usk_ keys and refuses missing, unknown and developer keys with 401', async () => {
    const service = await start();
    expect(service.issueKey()).toMatch(/^usk_[0-9a-f]{48}$/);
    for (const key of [undefined, 'usk_nope', 'upk_developer']) {
      const answer = await post(service, '/webhooks', key, hookBody);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: { code: anyString(), message: anyString() } });
    }
  });

  it('answers 401 to a replaced key while the new key keeps the server and its webhooks', async () => {
    const service = await start();
    const oldKey = service.issueKey();
    const created = await post(service, '/webhooks', oldKey, hookBody);
    const newKey = service.replaceKey(oldKey);

    expect((await post(service, '/webhooks', oldKey, hookBody)).status).toBe(401);
    expect(service.serverIdOf(newKey)).toMatch(/^\d+$/);
    expect((await post(service, `/webhooks/${String(created.body['id'])}/enable`, newKey)).status).toBe(200);
  });

  it('answers 403 once developer access is revoked', async () => {
    const service = await start();
    const key = service.issueKey();
    service.revokeAccess(key);
    const answer = await post(service, '/webhooks', key, hookBody);
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ error: { code: 'access_revoked', message: 'Developer access was revoked.' } });
  });
});

describe('rate limit', () => {
  it('allows the configured requests per minute, then 429 with retry-after until the next minute', async () => {
    let now = Date.UTC(2030, 0, 1, 12, 0, 15);
    const service = await start({ allowHttp: true, rateLimitPerMinute: 3, clock: () => now });
    const key = service.issueKey();
    for (let i = 0; i < 3; i++) expect((await post(service, '/webhooks/wh_none/enable', key)).status).toBe(404);

    const limited = await post(service, '/webhooks/wh_none/enable', key);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('45');
    expect(limited.body).toMatchObject({ error: { code: 'rate_limited' } });

    now += 45_000;
    expect((await post(service, '/webhooks/wh_none/enable', key)).status).toBe(404);
  });

  it('forces a 429 for the next request of one key only', async () => {
    const service = await start();
    const key = service.issueKey();
    const other = service.issueKey();
    service.rateLimitNext(key, 17);
    expect((await post(service, '/webhooks', other, hookBody)).status).toBe(201);
    const limited = await post(service, '/webhooks', key, hookBody);
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '17']);
    expect((await post(service, '/webhooks', key, hookBody)).status).toBe(201);
  });
});

describe('POST /webhooks', () => {
  it('returns the webhook with its secret once; inspection and later answers never show it', async () => {
    const service = await start();
    const key = service.issueKey();
    const created = await post(service, '/webhooks', key, hookBody);
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: stringMatching(/^wh_/),
      url: hookBody.url,
      events: hookBody.events,
      enabled: true,
      secret: stringMatching(/^[0-9a-f]{64}$/),
      createdAt: anyNumber(),
    });
    const id = String(created.body['id']);
    const secret = String(created.body['secret']);
    expect(service.secretOf(id)).toBe(secret);
    expect(JSON.stringify(service.webhooks())).not.toContain(secret);
    expect(JSON.stringify((await post(service, `/webhooks/${id}/enable`, key)).body)).not.toContain(secret);
  });

  it('refuses http addresses unless allowHttp, unknown events, and bodies that are not JSON objects', async () => {
    const strict = await start({});
    const key = strict.issueKey();
    const cases: Array<[unknown, string]> = [
      [{ ...hookBody, url: 'http://bot.example.com/webhooks/abc' }, 'invalid_url'],
      [{ ...hookBody, url: 'not a url' }, 'invalid_url'],
      [{ ...hookBody, events: ['case.created', 'player.joined'] }, 'invalid_events'],
      [{ ...hookBody, events: [] }, 'invalid_events'],
      [[hookBody], 'invalid_body'],
      ['{"url":', 'invalid_json'],
    ];
    for (const [body, code] of cases) {
      const answer = await post(strict, '/webhooks', key, body);
      expect([answer.status, answer.body]).toEqual([400, { error: { code, message: anyString() } }]);
    }
  });

  it('refuses a fourth webhook for a key', async () => {
    const service = await start();
    const key = service.issueKey();
    for (let i = 0; i < 3; i++) expect((await post(service, '/webhooks', key, hookBody)).status).toBe(201);
    const fourth = await post(service, '/webhooks', key, hookBody);
    expect(fourth.status).toBe(409);
    expect(fourth.body).toEqual({
      error: { code: 'webhook_limit', message: 'A server key can have at most 3 webhooks.' },
    });
  });
});

describe('POST /webhooks/:id/test', () => {
  it('refuses to ping a switched-off webhook and sends nothing', async () => {
    const service = await start();
    receiver = await startRecordingReceiver();
    const key = service.issueKey();
    const id = String((await post(service, '/webhooks', key, { ...hookBody, url: receiver.url })).body['id']);
    service.disableWebhook(id);

    const answer = await post(service, `/webhooks/${id}/test`, key);
    expect(answer).toMatchObject({ status: 409, body: { error: { code: 'webhook_disabled' } } });
    expect(receiver.received).toHaveLength(0);
  });

  it('sends a signed ping and answers with its outcome', async () => {
    const service = await start();
    receiver = await startRecordingReceiver();
    const key = service.issueKey();
    const id = String((await post(service, '/webhooks', key, { ...hookBody, url: receiver.url })).body['id']);

    const answer = await post(service, `/webhooks/${id}/test`, key);
    expect(answer).toMatchObject({ status: 200, body: { ok: true, delivery: { ok: true, status: 200 } } });
    const [ping] = await receiver.waitFor(1);
    if (!ping) throw new Error('no ping arrived');
    expect(JSON.parse(ping.rawBody.toString('utf8'))).toEqual({
      id: stringMatching(/^dlv_/),
      event: 'ping',
      server: service.serverIdOf(key),
      at: anyNumber(),
      data: {},
    });
    expect(readHeader(ping, 'x-service-event')).toBe('ping');
    const verdict = verifyDelivery({
      secret: service.secretOf(id),
      rawBody: ping.rawBody,
      signatureHeader: readHeader(ping, 'x-service-signature'),
      timestampHeader: readHeader(ping, 'x-service-timestamp'),
      now: Date.now(),
    });
    expect(verdict).toEqual({ ok: true });
  });

  it("answers 404 for another server's webhook", async () => {
    const service = await start();
    const owner = service.issueKey();
    const stranger = service.issueKey();
    const id = String((await post(service, '/webhooks', owner, hookBody)).body['id']);
    const answer = await post(service, `/webhooks/${id}/test`, stranger);
    expect(answer).toMatchObject({ status: 404, body: { error: { code: 'webhook_not_found' } } });
  });
});

describe('requests log', () => {
  it('records method, path, status and arrival time (its own clock) of every request, without headers', async () => {
    const service = await start({ allowHttp: true, clock: () => 1_234_000 });
    const key = service.issueKey();
    await post(service, '/webhooks', key, hookBody);
    expect(service.requests).toEqual([{ method: 'POST', path: '/api/server/v2/webhooks', status: 201, at: 1_234_000 }]);
    expect(JSON.stringify(service.requests)).not.toContain(key);
  });
});
