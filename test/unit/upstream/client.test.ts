import { describe, expect, it } from 'vitest';

import { createServiceClient, DEFAULT_SERVICE_TIMEOUT_MS, ServiceApiError } from '../../../src/upstream/client.js';

const KEY = 'usk_unit_0123456789abcdef';

interface SeenRequest {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch that records what it was asked and answers with the given Response. */
function stubFetch(make: () => Response): { fetch: typeof fetch; seen: SeenRequest[] } {
  const seen: SeenRequest[] = [];
  const fakeFetch: typeof fetch = (input, init) => {
    seen.push({ url: input instanceof Request ? input.url : input.toString(), init });
    return Promise.resolve(make());
  };
  return { fetch: fakeFetch, seen };
}

const jsonAnswer =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  () =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

async function catchServiceError(promise: Promise<unknown>): Promise<ServiceApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ServiceApiError)) throw new Error('expected a ServiceApiError');
  return error;
}

describe('createServiceClient', () => {
  it('joins SERVICE_URL and the server API path whatever the slashes, keeping a path prefix', async () => {
    for (const [serviceUrl, expected] of [
      ['https://svc.example.com', 'https://svc.example.com/api/server/v2/webhooks'],
      ['https://svc.example.com///', 'https://svc.example.com/api/server/v2/webhooks'],
      ['https://svc.example.com/base/?x=1#f', 'https://svc.example.com/base/api/server/v2/webhooks'],
      ['https://user:pw@svc.example.com', 'https://svc.example.com/api/server/v2/webhooks'],
    ] as const) {
      const { fetch, seen } = stubFetch(jsonAnswer(201, { id: 'w1', secret: 's' }));
      await createServiceClient({ serviceUrl, fetch }).createWebhook(KEY, {
        url: 'https://bot/webhooks/x',
        events: ['modcall'],
      });
      expect(seen[0]?.url).toBe(expected);
    }
  });

  it('refuses a SERVICE_URL that is not an http(s) URL', () => {
    expect(() => createServiceClient({ serviceUrl: 'svc.example.com' })).toThrow('SERVICE_URL is not a URL');
    expect(() => createServiceClient({ serviceUrl: 'ftp://svc.example.com' })).toThrow(/http/);
  });

  it('sends the key as a Bearer token with a JSON body, and no body for test and enable', async () => {
    const { fetch, seen } = stubFetch(() => new Response(null, { status: 204 }));
    const client = createServiceClient({ serviceUrl: 'https://svc.example.com', fetch });
    await client
      .createWebhook(KEY, { url: 'https://bot/webhooks/x', events: ['modcall', 'shift.ended'] })
      .catch(() => undefined);
    await client.testWebhook(KEY, 'w 1');
    await client.enableWebhook(KEY, 'w1');

    const [create, test, enable] = seen;
    expect(create?.init?.method).toBe('POST');
    expect(create?.init?.headers).toMatchObject({ authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(JSON.parse(create?.init?.body as string)).toEqual({
      url: 'https://bot/webhooks/x',
      events: ['modcall', 'shift.ended'],
    });
    expect(create?.init?.signal).toBeInstanceOf(AbortSignal);
    expect(test?.url).toBe('https://svc.example.com/api/server/v2/webhooks/w%201/test');
    expect(test?.init?.body).toBeUndefined();
    expect(enable?.url).toBe('https://svc.example.com/api/server/v2/webhooks/w1/enable');
  });

  it('accepts a numeric id, extra fields and a record wrapped in { webhook }', async () => {
    const plain = stubFetch(jsonAnswer(201, { id: 17, secret: 'abc', enabled: true, extra: { a: 1 } }));
    const created = await createServiceClient({ serviceUrl: 'https://svc', fetch: plain.fetch }).createWebhook(KEY, {
      url: 'https://b',
      events: ['modcall'],
    });
    expect(created).toMatchObject({ id: '17', secret: 'abc', extra: { a: 1 } });

    const wrapped = stubFetch(jsonAnswer(200, { webhook: { id: 'w9', secret: 'def' } }));
    const unwrapped = await createServiceClient({ serviceUrl: 'https://svc', fetch: wrapped.fetch }).createWebhook(
      KEY,
      { url: 'https://b', events: ['modcall'] },
    );
    expect(unwrapped).toMatchObject({ id: 'w9', secret: 'def' });
  });

  it('fails a creation answer without a secret as an unreadable answer', async () => {
    const { fetch } = stubFetch(jsonAnswer(201, { id: 'w1' }));
    const error = await catchServiceError(
      createServiceClient({ serviceUrl: 'https://svc', fetch }).createWebhook(KEY, {
        url: 'https://b',
        events: ['modcall'],
      }),
    );
    expect(error).toMatchObject({ failure: 'bad_answer', status: 201 });
    expect(error.message).toContain('no webhook id and secret');
  });

  it('reads an HTTP-date retry-after with the injected clock', async () => {
    const now = Date.UTC(2030, 0, 1, 12, 0, 0);
    const { fetch } = stubFetch(
      jsonAnswer(
        429,
        { error: { code: 'slow_down', message: 'Too many' } },
        { 'retry-after': 'Tue, 01 Jan 2030 12:02:00 GMT' },
      ),
    );
    const error = await catchServiceError(
      createServiceClient({ serviceUrl: 'https://svc', fetch, clock: () => now }).enableWebhook(KEY, 'w1'),
    );
    expect(error).toMatchObject({ status: 429, retryAfterSeconds: 120, code: 'slow_down', serviceMessage: 'Too many' });
    expect(error.message).toBe('the service is rate-limiting us: try again in 120 s');
  });

  it('treats a rejected fetch as unreachable without keeping the rejection', async () => {
    const fetch: typeof globalThis.fetch = () =>
      Promise.reject(new TypeError(`fetch failed for Bearer ${KEY}`, { cause: { code: 'ENOTFOUND' } }));
    const error = await catchServiceError(
      createServiceClient({ serviceUrl: 'https://svc.example.com:8443', fetch }).testWebhook(KEY, 'w1'),
    );
    expect(error).toMatchObject({ failure: 'unreachable', networkCode: 'ENOTFOUND' });
    expect(error.message).toBe('could not reach the service at svc.example.com:8443');
    expect(JSON.stringify(error) + String(error.stack)).not.toContain(KEY);
  });

  it('cuts a long service message so it fits a Discord reply', async () => {
    const { fetch } = stubFetch(jsonAnswer(400, { error: { code: 'bad', message: 'x'.repeat(5_000) } }));
    const error = await catchServiceError(
      createServiceClient({ serviceUrl: 'https://svc', fetch }).enableWebhook(KEY, 'w1'),
    );
    expect(error.serviceMessage).toHaveLength(300);
    expect(error.serviceMessage?.endsWith('…')).toBe(true);
  });

  it('defaults to a 10 s deadline', () => {
    expect(DEFAULT_SERVICE_TIMEOUT_MS).toBe(10_000);
  });
});
