import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { HOOK_SECRET, startIntakeHarness, type IntakeHarness } from '../helpers/intake-harness.js';

/**
 * Deliveries are answered ahead of Express (src/intake/create-app.ts): the paths the service may use reach the
 * webhook route as Express's `/webhooks/:hookId` matched them, and everything else still gets Express's answers.
 */
let h: IntakeHarness;
beforeAll(async () => {
  h = await startIntakeHarness();
});
afterAll(async () => {
  await h.stop();
});

let sent = 0;
/** A signed delivery of a new id, to `path` (after the bot's base URL) with `method`. */
function deliver(path: string, method = 'POST'): Promise<Response> {
  sent += 1;
  const body = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: `routing-${sent}` });
  const timestamp = String(Math.floor(h.now.ms / 1000));
  return fetch(`${h.bot.http.url}${path}`, {
    method,
    headers: {
      'content-type': 'application/json',
      'x-service-timestamp': timestamp,
      'x-service-signature': signDelivery(HOOK_SECRET, timestamp, body),
    },
    ...(method === 'GET' || method === 'HEAD' ? {} : { body }),
  });
}

describe('the intake route, served ahead of Express', () => {
  it.each([
    ['its path', (hookId: string) => `/webhooks/${hookId}`],
    ['a trailing slash', (hookId: string) => `/webhooks/${hookId}/`],
    ['a query string', (hookId: string) => `/webhooks/${hookId}?attempt=2`],
    ['the path in capitals', (hookId: string) => `/WEBHOOKS/${hookId}`],
    [
      'the hook id percent-encoded',
      (hookId: string) => `/webhooks/%${hookId.charCodeAt(0).toString(16)}${hookId.slice(1)}`,
    ],
  ])('stores a delivery sent to %s', async (_name, pathOf) => {
    const response = await deliver(pathOf(h.hookId));
    expect(response.status).toBe(204);
  });

  it('answers a delivery to a hook it does not know 404 unknown_hook', async () => {
    const response = await deliver('/webhooks/not-a-hook');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: { code: 'unknown_hook' } });
  });

  it.each([
    ['a GET of the hook', (hookId: string) => `/webhooks/${hookId}`, 'GET'],
    ['a path below the hook', (hookId: string) => `/webhooks/${hookId}/more`, 'POST'],
    ['no hook id', () => '/webhooks/', 'POST'],
    ['a hook id that does not decode', () => '/webhooks/%E0%A4%A', 'POST'],
  ])('answers %s 404 not_found, as Express does any other route', async (_name, pathOf, method) => {
    const response = await deliver(pathOf(h.hookId), method);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: 'not_found', message: 'no such route' } });
  });

  it('still serves /healthz through Express', async () => {
    const response = await fetch(`${h.bot.http.url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ status: 'ok' });
  });

  it('stored each delivery it answered 204, once', async () => {
    const counts = await h.bot.store.deliveries.countByState();
    expect(counts.waiting + counts.held + counts.muted).toBe(5);
  });
});
