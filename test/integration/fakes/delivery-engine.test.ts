import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { MAX_CONSECUTIVE_FAILURES, startFakeService, type FakeService } from '../../../fakes/service/index.js';
import {
  readHeader,
  startRecordingReceiver,
  type RecordingReceiver,
} from '../../../fakes/service/recording-receiver.js';
import { verifyDelivery } from '../../../src/upstream/signature.js';

const modcall = {
  event: 'modcall',
  data: { caller: { robloxId: '123456789', name: 'tiny_turtle77' }, at: 1_700_000_000_000 },
};

let fake: FakeService;
let receiver: RecordingReceiver;
let key: string;

beforeEach(async () => {
  fake = await startFakeService({ allowHttp: true, deliveryTimeoutMs: 1_000 });
  receiver = await startRecordingReceiver();
  key = fake.issueKey();
});

afterEach(async () => {
  await Promise.all([fake.close(), receiver.close()]);
});

async function registerWebhook(url: string, events: string[] = ['modcall', 'case.created']): Promise<string> {
  const response = await fetch(`${fake.baseUrl}/api/server/v2/webhooks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url, events }),
  });
  expect(response.status).toBe(201);
  const body = (await response.json()) as { id: string };
  return body.id;
}

async function deliverTimes(webhookId: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) await fake.deliver(webhookId, modcall);
}

describe('switching a webhook off (§3)', () => {
  it('switches off after exactly 20 failed deliveries in a row, then sends nothing more', async () => {
    const id = await registerWebhook(receiver.url);
    receiver.answerWith({ status: 500 });

    await deliverTimes(id, MAX_CONSECUTIVE_FAILURES - 1);
    expect(fake.isEnabled(id)).toBe(true);
    await deliverTimes(id, 1);
    expect(fake.isEnabled(id)).toBe(false);

    expect(await fake.deliver(id, modcall)).toBeUndefined();
    expect(receiver.received).toHaveLength(20);
    expect(fake.deliveries.every((record) => !record.ok && record.failure === 'status' && record.status === 500)).toBe(
      true,
    );
  });

  it('stays on after 19 failures, a success and 19 more failures', async () => {
    const id = await registerWebhook(receiver.url);
    receiver.answerWith({ status: 503 });
    await deliverTimes(id, 19);
    receiver.answerWith({ status: 204 });
    await deliverTimes(id, 1);
    receiver.answerWith({ status: 404 });
    await deliverTimes(id, 19);

    expect(fake.isEnabled(id)).toBe(true);
    expect(fake.webhooks()[0]?.consecutiveFailures).toBe(19);
  });

  it('counts a receiver that does not answer in time and one that cannot be reached as failures', async () => {
    const id = await registerWebhook(receiver.url);
    receiver.answerWith('hang');
    const late = await fake.deliver(id, modcall);
    expect(late).toMatchObject({ ok: false, failure: 'timeout', status: undefined });

    const closed = await startRecordingReceiver();
    await closed.close();
    const goneId = await registerWebhook(closed.url);
    const gone = await fake.deliver(goneId, modcall);
    expect(gone).toMatchObject({ ok: false, failure: 'network' });
    expect(fake.webhooks().map((webhook) => webhook.consecutiveFailures)).toEqual([1, 1]);
  });

  it('counts a redirect as a failure instead of following it', async () => {
    const id = await registerWebhook(receiver.url);
    receiver.answerWith({ status: 302 });
    expect(await fake.deliver(id, modcall)).toMatchObject({ ok: false, status: 302, failure: 'status' });
  });
});

describe('POST /webhooks/:id/enable', () => {
  it('switches a webhook back on with a clean count, and deliveries resume', async () => {
    const id = await registerWebhook(receiver.url);
    receiver.answerWith({ status: 500 });
    await deliverTimes(id, 20);
    expect(fake.isEnabled(id)).toBe(false);

    const response = await fetch(`${fake.baseUrl}/api/server/v2/webhooks/${id}/enable`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    expect(response.status).toBe(200);
    expect(fake.isEnabled(id)).toBe(true);
    expect(fake.webhooks()[0]?.consecutiveFailures).toBe(0);

    receiver.answerWith({ status: 200 });
    expect(await fake.deliver(id, modcall)).toMatchObject({ ok: true, status: 200 });
  });
});

describe('signed deliveries (§4.3)', () => {
  it('sends headers that verify with the webhook secret over the raw body', async () => {
    const id = await registerWebhook(receiver.url);
    const record = await fake.deliver(id, modcall);
    const [request] = await receiver.waitFor(1);
    if (!request) throw new Error('no delivery arrived');

    expect(readHeader(request, 'content-type')).toBe('application/json');
    expect(readHeader(request, 'x-service-event')).toBe('modcall');
    expect(readHeader(request, 'x-service-timestamp')).toMatch(/^\d{10}$/);
    const verdict = verifyDelivery({
      secret: fake.secretOf(id),
      rawBody: request.rawBody,
      signatureHeader: readHeader(request, 'x-service-signature'),
      timestampHeader: readHeader(request, 'x-service-timestamp'),
      now: Date.now(),
    });
    expect(verdict).toEqual({ ok: true });

    const body = JSON.parse(request.rawBody.toString('utf8')) as Record<string, unknown>;
    expect(body).toMatchObject({
      id: record?.deliveryId,
      event: 'modcall',
      server: fake.serverIdOf(key),
      data: modcall.data,
    });
    expect(body['at']).toEqual(expect.any(Number));
  });

  it('stamps the timestamp header from the injected clock', async () => {
    await fake.close();
    const at = Date.UTC(2030, 0, 1);
    fake = await startFakeService({ allowHttp: true, clock: () => at });
    key = fake.issueKey();
    const id = await registerWebhook(receiver.url);
    await fake.deliver(id, modcall);
    const [request] = await receiver.waitFor(1);
    expect(request && readHeader(request, 'x-service-timestamp')).toBe(String(at / 1000));
    expect(fake.webhooks()[0]?.createdAt).toBe(at);
  });
});

describe('emit and retryFailed', () => {
  it('emits to the enabled webhooks of the server that subscribed to the event', async () => {
    const subscribed = await registerWebhook(receiver.url, ['modcall']);
    await registerWebhook(receiver.url, ['case.created']);
    const off = await registerWebhook(receiver.url, ['modcall']);
    fake.disableWebhook(off);
    const otherKey = fake.issueKey();

    const records = await fake.emit({ id: 'dlv_1', server: fake.serverIdOf(key), at: 1, ...modcall });
    expect(records.map((record) => record.webhookId)).toEqual([subscribed]);
    expect(await fake.emit({ id: 'dlv_2', server: fake.serverIdOf(otherKey), at: 1, ...modcall })).toEqual([]);
  });

  it('re-sends a failed delivery with the same delivery id, once per call', async () => {
    const id = await registerWebhook(receiver.url);
    receiver.answerWith({ status: 500 });
    const first = await fake.deliver(id, modcall);
    receiver.answerWith({ status: 200 });
    const retried = await fake.retryFailed();

    expect(retried).toEqual([expect.objectContaining({ deliveryId: first?.deliveryId, attempt: 2, ok: true })]);
    expect(await fake.retryFailed()).toEqual([]);
    const ids = receiver.received.map((request) => (JSON.parse(request.rawBody.toString('utf8')) as { id: string }).id);
    expect(ids).toEqual([first?.deliveryId, first?.deliveryId]);
  });
});
