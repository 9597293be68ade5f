import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeService, type FakeService } from '../../fakes/service/index.js';
import { readHeader, startRecordingReceiver, type RecordingReceiver } from '../../fakes/service/recording-receiver.js';
import { UserFacingError } from '../../src/base/errors.js';
import { createServiceClient, ServiceApiError, type ServiceClient } from '../../src/upstream/client.js';
import { verifyDelivery } from '../../src/upstream/signature.js';
import { stringMatching } from '../helpers/matchers.js';

/** A key nobody could mistake for anything else, for the paths that do not need the fake's own keys. */
const CANARY_KEY = 'usk_CANARY_7f3a9c1e5b2d4680aa11';

let fake: FakeService;
let receiver: RecordingReceiver;
let client: ServiceClient;
const extraServers: Array<() => Promise<void>> = [];

beforeEach(async () => {
  fake = await startFakeService({ allowHttp: true });
  receiver = await startRecordingReceiver();
  // A trailing slash on SERVICE_URL must not produce `//api`.
  client = createServiceClient({ serviceUrl: `${fake.baseUrl}/` });
});

afterEach(async () => {
  await Promise.all([fake.close(), receiver.close(), ...extraServers.splice(0).map((close) => close())]);
});

/** Starts a throwaway HTTP server standing in for a misbehaving service; closed after the test. */
async function startOddService(listener: RequestListener): Promise<string> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  extraServers.push(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Runs `call`, expects a ServiceApiError, and checks that nothing reachable from it holds the key. */
async function expectServiceError(call: () => Promise<unknown>, key: string): Promise<ServiceApiError> {
  const error = await call().then(
    () => expect.fail('the call should have failed'),
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(ServiceApiError);
  expect(error).toBeInstanceOf(UserFacingError);
  const serviceError = error as ServiceApiError;
  const views = [
    JSON.stringify(serviceError),
    String(serviceError),
    serviceError.stack ?? '',
    inspect(serviceError, { depth: 10, showHidden: true }),
    JSON.stringify(
      Object.getOwnPropertyNames(serviceError).map((name) => [name, String(Reflect.get(serviceError, name))]),
    ),
  ];
  for (const view of views) expect(view).not.toContain(key);
  // The hex body of a usk_ key is the secret part: it must not appear on its own either.
  for (const view of views) expect(view).not.toContain(key.slice(4));
  expect(serviceError.cause).toBeUndefined();
  return serviceError;
}

describe('createWebhook', () => {
  it('registers a webhook and returns its id and secret', async () => {
    const key = fake.issueKey();
    const created = await client.createWebhook(key, { url: receiver.url, events: ['case.created', 'modcall'] });

    expect(created).toMatchObject({
      id: stringMatching(/^wh_/),
      url: receiver.url,
      events: ['case.created', 'modcall'],
    });
    expect(created.secret).toBe(fake.secretOf(created.id));
    expect(fake.webhooks()).toEqual([expect.objectContaining({ id: created.id, enabled: true })]);
  });

  it('refuses the fourth webhook with the service code and message', async () => {
    const key = fake.issueKey();
    for (let i = 0; i < 3; i++) await client.createWebhook(key, { url: receiver.url, events: ['modcall'] });

    const error = await expectServiceError(
      () => client.createWebhook(key, { url: receiver.url, events: ['modcall'] }),
      key,
    );
    expect(error).toMatchObject({
      failure: 'rejected',
      status: 409,
      code: 'webhook_limit',
      operation: 'createWebhook',
    });
    expect(error.message).toBe(
      'the service refused the request (HTTP 409, webhook_limit: A server key can have at most 3 webhooks.)',
    );
  });

  it('passes on the service refusing an http address', async () => {
    await fake.close();
    fake = await startFakeService();
    client = createServiceClient({ serviceUrl: fake.baseUrl });
    const key = fake.issueKey();
    const error = await expectServiceError(
      () => client.createWebhook(key, { url: receiver.url, events: ['modcall'] }),
      key,
    );
    expect(error).toMatchObject({ status: 400, code: 'invalid_url', serviceMessage: 'url must be an https address.' });
  });
});

describe('testWebhook', () => {
  it('makes the service send a ping that verifies with the secret', async () => {
    const key = fake.issueKey();
    const { id, secret } = await client.createWebhook(key, { url: receiver.url, events: ['modcall'] });

    const answer = await client.testWebhook(key, id);
    expect(answer).toMatchObject({ ok: true });
    const [ping] = await receiver.waitFor(1);
    if (!ping) throw new Error('no ping arrived');
    const verdict = verifyDelivery({
      secret,
      rawBody: ping.rawBody,
      signatureHeader: readHeader(ping, 'x-service-signature'),
      timestampHeader: readHeader(ping, 'x-service-timestamp'),
      now: Date.now(),
    });
    expect(verdict).toEqual({ ok: true });
    expect(JSON.parse(ping.rawBody.toString('utf8'))).toMatchObject({ event: 'ping', server: fake.serverIdOf(key) });
  });

  it('reports an unknown webhook id as the service words it', async () => {
    const key = fake.issueKey();
    const error = await expectServiceError(() => client.testWebhook(key, 'wh_../../x?y'), key);
    expect(error).toMatchObject({ status: 404, code: 'webhook_not_found' });
    expect(fake.requests.at(-1)?.path).toBe('/api/server/v2/webhooks/wh_..%2F..%2Fx%3Fy/test');
  });
});

describe('enableWebhook', () => {
  it('switches a disabled webhook back on', async () => {
    const key = fake.issueKey();
    const { id } = await client.createWebhook(key, { url: receiver.url, events: ['modcall'] });
    fake.disableWebhook(id);

    await client.enableWebhook(key, id);
    expect(fake.isEnabled(id)).toBe(true);
  });
});

describe('refusals', () => {
  it('401 after the key was replaced: tells the admin to run /setup', async () => {
    const key = fake.issueKey();
    fake.replaceKey(key);
    const error = await expectServiceError(
      () => client.createWebhook(key, { url: receiver.url, events: ['modcall'] }),
      key,
    );
    expect(error).toMatchObject({ status: 401, code: 'invalid_key', failure: 'rejected' });
    expect(error.message).toBe('the server key was replaced or revoked: run /setup with the new key');
  });

  it('403 after developer access was revoked', async () => {
    const key = fake.issueKey();
    const { id } = await client.createWebhook(key, { url: receiver.url, events: ['modcall'] });
    fake.revokeAccess(key);
    const error = await expectServiceError(() => client.enableWebhook(key, id), key);
    expect(error).toMatchObject({ status: 403, code: 'access_revoked' });
    expect(error.message).toContain('developer access was revoked');
  });

  it('429: says when to try again and does not retry by itself', async () => {
    const key = fake.issueKey();
    fake.rateLimitNext(key, 42);
    const error = await expectServiceError(
      () => client.createWebhook(key, { url: receiver.url, events: ['modcall'] }),
      key,
    );
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 42, code: 'rate_limited' });
    expect(error.message).toBe('the service is rate-limiting us: try again in 42 s');
    expect(fake.requests).toHaveLength(1);
  });
});

describe('a service that misbehaves', () => {
  it('times out when the service hangs', async () => {
    const hanging = await startRecordingReceiver();
    hanging.answerWith('hang');
    extraServers.push(() => hanging.close());
    const slowClient = createServiceClient({ serviceUrl: new URL(hanging.url).origin, timeoutMs: 200 });

    const started = Date.now();
    const error = await expectServiceError(() => slowClient.testWebhook(CANARY_KEY, 'wh_1'), CANARY_KEY);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error).toMatchObject({ failure: 'timeout', status: undefined });
    expect(error.message).toBe('the service did not answer within 0.2 s');
  });

  it('times out when the service sends headers and then stalls the body', async () => {
    const url = await startOddService((_req, res) => {
      res.writeHead(201, { 'content-type': 'application/json' });
      res.write('{"id":');
    });
    const slowClient = createServiceClient({ serviceUrl: url, timeoutMs: 200 });
    const error = await expectServiceError(
      () => slowClient.createWebhook(CANARY_KEY, { url: receiver.url, events: ['modcall'] }),
      CANARY_KEY,
    );
    expect(error.failure).toBe('timeout');
  });

  it('cannot reach a closed port', async () => {
    const closed = await startRecordingReceiver();
    await closed.close();
    const origin = new URL(closed.url).origin;
    const error = await expectServiceError(
      () => createServiceClient({ serviceUrl: origin }).enableWebhook(CANARY_KEY, 'wh_1'),
      CANARY_KEY,
    );
    expect(error).toMatchObject({ failure: 'unreachable', networkCode: 'ECONNREFUSED' });
    expect(error.message).toBe(`could not reach the service at ${new URL(origin).host}`);
  });

  it('reads a non-JSON error page as a refusal without description', async () => {
    const url = await startOddService((_req, res) =>
      res.writeHead(502, { 'content-type': 'text/html' }).end('<h1>Bad gateway</h1>'),
    );
    const error = await expectServiceError(
      () => createServiceClient({ serviceUrl: url }).testWebhook(CANARY_KEY, 'wh_1'),
      CANARY_KEY,
    );
    expect(error).toMatchObject({ failure: 'rejected', status: 502, code: undefined });
    expect(error.message).toBe(
      'the service failed with an internal error (HTTP 502, without an error description): try again later',
    );
  });

  it('refuses a 2xx creation answer that is not JSON', async () => {
    const url = await startOddService((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>welcome</html>'),
    );
    const error = await expectServiceError(
      () =>
        createServiceClient({ serviceUrl: url }).createWebhook(CANARY_KEY, { url: receiver.url, events: ['modcall'] }),
      CANARY_KEY,
    );
    expect(error).toMatchObject({ failure: 'bad_answer', status: 200 });
    expect(error.message).toBe('the service sent an answer we could not read (HTTP 200: not JSON)');
  });

  it('accepts any or no body from test and enable', async () => {
    const url = await startOddService((req, res) => {
      if (req.url?.endsWith('/test')) res.writeHead(202).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
    const oddClient = createServiceClient({ serviceUrl: url });
    await expect(oddClient.testWebhook(CANARY_KEY, 'wh_1')).resolves.toBeUndefined();
    await expect(oddClient.enableWebhook(CANARY_KEY, 'wh_1')).resolves.toBeUndefined();
  });

  it('keeps the key out of the error even when the service echoes it back', async () => {
    const url = await startOddService((req, res) => {
      const body = { error: { code: 'bad_request', message: `rejected header ${req.headers.authorization ?? ''}` } };
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    const error = await expectServiceError(
      () => createServiceClient({ serviceUrl: url }).enableWebhook(CANARY_KEY, 'wh_1'),
      CANARY_KEY,
    );
    expect(error.serviceMessage).toBe('rejected header Bearer [redacted]');
  });

  it('refuses to send a key that cannot be a header, without quoting it', async () => {
    const key = `${CANARY_KEY}\r\nx-injected: 1`;
    const error = await expectServiceError(() => client.enableWebhook(key, 'wh_1'), CANARY_KEY);
    expect(error.failure).toBe('bad_key');
    expect(fake.requests).toHaveLength(0);
  });
});
