import { afterEach, describe, expect, it } from 'vitest';

import { startFakeService, SUBMISSIONS_PER_HOUR, type FakeService } from '../../../fakes/service/index.js';

let now = Date.UTC(2026, 10, 20, 12, 0, 30);
let service: FakeService | undefined;

afterEach(async () => {
  await service?.close();
  service = undefined;
});

async function start(): Promise<FakeService> {
  now = Date.UTC(2026, 10, 20, 12, 0, 30);
  service = await startFakeService({ clock: () => now });
  return service;
}

async function call(fake: FakeService, key: string, method: string, path: string, body?: unknown) {
  const response = await fetch(`${fake.baseUrl}/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

const submission = (version: string) => ({
  name: 'App',
  tagline: 'Line',
  description: 'd'.repeat(50),
  category: 'tools',
  version,
  whatsNew: 'w',
  repoUrl: 'https://github.com/a/b',
});

describe('the fake developer API v1', () => {
  it('counts 60 requests a minute per key in x-ratelimit-* headers, then answers 429 with retry-after', async () => {
    const fake = await start();
    const key = fake.issueDeveloperKey();
    const first = await call(fake, key, 'GET', '/me');
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    expect(first.headers.get('x-ratelimit-reset')).toBe('30');
    for (let i = 0; i < 59; i += 1) await call(fake, key, 'GET', '/apps');
    const over = await call(fake, key, 'GET', '/apps');
    expect(over.status).toBe(429);
    expect(over.headers.get('retry-after')).toBe('30');
    expect(over.body).toEqual({ error: { code: 'rate_limited', message: expect.any(String) as string } });
  });

  it('answers 401 for a server key or a replaced key, and 403 once access is revoked', async () => {
    const fake = await start();
    expect((await call(fake, fake.issueKey(), 'GET', '/me')).body).toMatchObject({ error: { code: 'wrong_key_kind' } });
    const key = fake.issueDeveloperKey();
    fake.replaceDeveloperKey(key);
    expect((await call(fake, key, 'GET', '/me')).status).toBe(401);
    const other = fake.issueDeveloperKey();
    fake.revokeDeveloperAccess(other);
    expect((await call(fake, other, 'GET', '/me')).status).toBe(403);
  });

  it('takes 10 submissions an hour, refuses bad ones with 400, and forgets unused uploads after 24 h', async () => {
    const fake = await start();
    const key = fake.issueDeveloperKey();
    const created = await call(fake, key, 'POST', '/apps', submission('1'));
    const appId = (created.body['app'] as { id: number }).id;
    expect(created.status).toBe(201);
    expect((await call(fake, key, 'POST', `/apps/${appId}/submissions`, submission('2'))).body).toMatchObject({
      error: { code: 'pending_exists' },
    });
    expect(
      (await call(fake, key, 'POST', `/apps/${appId}/submissions`, { ...submission('2'), description: 'short' }))
        .status,
    ).toBe(400);
    expect(
      (await call(fake, key, 'POST', `/apps/${appId}/submissions`, { ...submission('2'), files: ['upl_nope'] })).status,
    ).toBe(400);
    for (let i = 2; i <= SUBMISSIONS_PER_HOUR; i += 1) {
      fake.setVersionState(appId, String(i - 1), 'approved');
      expect((await call(fake, key, 'POST', `/apps/${appId}/submissions`, submission(String(i)))).status).toBe(201);
    }
    fake.setVersionState(appId, String(SUBMISSIONS_PER_HOUR), 'approved');
    const limited = await call(fake, key, 'POST', `/apps/${appId}/submissions`, submission('11'));
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ error: { code: 'submission_limit' } });
    expect(Number(limited.headers.get('retry-after'))).toBe(3600);

    const upload = await fetch(`${fake.baseUrl}/api/v1/uploads?name=a.tar.gz`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/octet-stream' },
      body: new Uint8Array([1, 2, 3]),
    });
    expect(await upload.json()).toMatchObject({ file: { name: 'a.tar.gz', kind: 'tar.gz', size: 3, files: 1 } });
    now += 60 * 60_000;
    expect(((await call(fake, key, 'GET', '/uploads')).body['uploads'] as unknown[]).length).toBe(1);
    now += 23 * 60 * 60_000;
    expect((await call(fake, key, 'GET', '/uploads')).body).toEqual({ uploads: [] });
    expect((await call(fake, key, 'DELETE', `/apps/${appId}/submissions/pending`)).status).toBe(404);
    expect((await call(fake, key, 'GET', '/apps/999')).status).toBe(404);
  });
});
