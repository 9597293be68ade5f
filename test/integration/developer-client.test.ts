import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { startFakeService, type FakeService } from '../../fakes/service/index.js';
import { createDeveloperClient, type DeveloperClient } from '../../src/upstream/developer-client.js';
import { ServiceApiError } from '../../src/upstream/service-api-error.js';

const DESCRIPTION = 'A calculator for in-game economies: prices, taxes and shop margins at a glance.';

let now = Date.UTC(2026, 10, 20, 12, 0, 0);
const clock = () => now;
let service: FakeService;
let client: DeveloperClient;
let key: string;

beforeEach(async () => {
  now = Date.UTC(2026, 10, 20, 12, 0, 0);
  service = await startFakeService({ clock });
  client = createDeveloperClient({ serviceUrl: service.baseUrl, clock });
  key = service.issueDeveloperKey('Lantern Studio');
});

afterEach(async () => {
  await service.close();
});

const command = () => ({ key, purpose: 'command' as const });

async function failure(promise: Promise<unknown>): Promise<ServiceApiError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof ServiceApiError)) throw new Error(`expected a ServiceApiError, got ${String(error)}`);
  expect(`${error.message} ${error.stack ?? ''}`).not.toContain(key);
  return error;
}

describe('the developer API client against the fake service', () => {
  it('reads the account, the options, the apps and one app with its versions', async () => {
    const appId = service.addApp(key, {
      name: 'Pricewise',
      versions: [
        { version: '1.0', status: 'approved', submission: { tagline: 'Prices', category: 'tools' } },
        { version: '1.1', status: 'in_review' },
      ],
    });
    expect((await client.getMe(command())).name).toBe('Lantern Studio');
    expect(await client.getOptions(command())).toMatchObject({
      categories: expect.arrayContaining(['games', 'tools']) as unknown,
      repoAccess: ['public', 'private'],
      maxUploadBytes: 25 * 1024 * 1024,
    });
    const [summary] = await client.listApps(command());
    expect(summary).toMatchObject({
      id: String(appId),
      name: 'Pricewise',
      pending: { label: '1.1', state: 'in_review' },
    });
    const detail = await client.getApp(command(), String(appId));
    expect(detail.versions.map((version) => [version.label, version.state, version.pending])).toEqual([
      ['1.0', 'approved', false],
      ['1.1', 'in_review', true],
    ]);
    expect(await client.getStore(command())).toEqual([
      { id: String(appId), name: 'Pricewise', tagline: 'Prices', category: 'tools', version: '1.0' },
    ]);
  });

  it('uploads raw bytes under their name, submits JSON with the token, lists and withdraws', async () => {
    const appId = String(
      service.addApp(key, { name: 'Pricewise', versions: [{ version: '1.0', status: 'approved' }] }),
    );
    const bytes = new Uint8Array([0x50, 0x4b, 3, 4, 0, 255, 10, 13]);
    const file = await client.upload(command(), { name: 'build 1.1.zip', bytes });
    expect(file).toMatchObject({ name: 'build 1.1.zip', kind: 'zip', size: 8 });
    expect(service.uploads()[0]?.bytes.equals(Buffer.from(bytes))).toBe(true);
    expect(await client.listUploads(command())).toEqual([
      { name: 'build 1.1.zip', kind: 'zip', size: 8, createdAt: now, expiresAt: now + 24 * 3600 * 1000 },
    ]);

    const submission = {
      name: 'Pricewise',
      tagline: 'Prices',
      description: DESCRIPTION,
      category: 'tools',
      version: '1.1',
      whatsNew: 'Taxes',
      files: [file.token],
    };
    await client.submitVersion(command(), appId, submission);
    expect(service.submissions()).toMatchObject([{ appId: Number(appId), body: submission }]);
    expect(await client.listUploads(command())).toEqual([]);
    await client.withdrawPending(command(), appId);
    expect(service.versionState(Number(appId), '1.1')).toBe('withdrawn');
    const created = await client.createApp(command(), {
      ...submission,
      name: 'Second',
      files: undefined,
      repoUrl: 'https://github.com/l/s',
    });
    expect(created).toMatchObject({ app: { name: 'Second' } });
  });

  it('explains 401 and 403 in words for the developer key, never quoting it', async () => {
    // A new key stops the one the bot holds (§5.4).
    service.replaceDeveloperKey(key);
    const refused = await failure(client.getMe(command()));
    expect(refused).toMatchObject({ status: 401 });
    expect(refused.message).toMatch(/no longer accepts the developer key .*run \/app key/);

    key = service.issueDeveloperKey();
    service.revokeDeveloperAccess(key);
    const revoked = await failure(client.listApps(command()));
    expect(revoked).toMatchObject({ status: 403 });
    expect(revoked.message).toMatch(/developer access was revoked \(403\)/);
  });

  it('sends nothing for exactly retry-after after a 429, and says when to retry', async () => {
    service.rateLimitNext(key, 30);
    const limited = await failure(client.getMe(command()));
    expect(limited).toMatchObject({ status: 429, retryAfterSeconds: 30 });
    const before = service.requests.length;
    now += 12_000;
    const held = await failure(client.getMe(command()));
    expect(held).toMatchObject({ failure: 'throttled', retryAfterSeconds: 18 });
    expect(held.message).toMatch(/try again in 18 s/);
    expect(service.requests).toHaveLength(before);
    now += 18_000;
    await expect(client.getMe(command())).resolves.toMatchObject({ name: 'Lantern Studio' });
  });

  it('keeps polling within its share of the minute and commands within 60', async () => {
    const poll = { key, purpose: 'poll' as const };
    for (let i = 0; i < 30; i += 1) await client.listApps(poll);
    expect(client.checkBudget(key, 'poll')).toEqual({ ok: false, waitMs: 60_000, reason: 'budget' });
    expect(client.checkBudget(key, 'command')).toEqual({ ok: true });
    await expect(client.listApps(poll)).rejects.toMatchObject({ failure: 'throttled' });
    for (let i = 0; i < 30; i += 1) await client.listApps(command());
    const over = await failure(client.listApps(command()));
    expect(over.message).toMatch(/used its 60 requests of the last minute .* try again in 60 s/);
    expect(service.requests.filter((request) => request.status === 429)).toEqual([]);
  });

  it('refuses a key that cannot travel in a header before sending anything', async () => {
    key = 'upk_with space';
    const error = await failure(client.getMe(command()));
    expect(error.message).toMatch(/stored developer key cannot be sent .* \/app key/);
    expect(service.requests).toEqual([]);
  });
});
