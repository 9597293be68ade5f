import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { GUILD_ID, HOOK_SECRET, startIntakeHarness, type IntakeHarness } from '../helpers/intake-harness.js';

let h: IntakeHarness;
beforeEach(async () => {
  h = await startIntakeHarness();
});
afterEach(async () => {
  await h.stop();
});

/**
 * Sends a signed delivery in two parts and runs `between` after the intake has looked its hook up and before
 * the rest of the body arrives; resolves with the status and the body of the answer.
 */
async function deliverAround(
  between: () => Promise<void>,
  body = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'late-1' }),
): Promise<{ status: number; body: string }> {
  const timestamp = String(Math.floor(h.now.ms / 1000));
  const lookedUp = vi.spyOn(h.bot.store.hooks, 'get');
  const { port } = new URL(h.bot.http.url);
  const req = request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: `/webhooks/${h.hookId}`,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      'x-service-timestamp': timestamp,
      'x-service-signature': signDelivery(HOOK_SECRET, timestamp, body),
    },
  });
  const answered = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
  });
  req.write(body.slice(0, 10));
  await vi.waitFor(() => expect(lookedUp).toHaveBeenCalledWith(h.hookId));
  await between();
  req.end(body.slice(10));
  return answered;
}

describe('a hook removed while a delivery to it is under way', () => {
  it('is refused with 404, though the intake found the hook before the removal; nothing is stored', async () => {
    const answer = await deliverAround(() => h.bot.store.hooks.remove(h.hookId));
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.body)).toEqual({
      error: { code: 'unknown_hook', message: 'no webhook is registered at this address' },
    });
    expect(await h.bot.store.deliveries.stateOf(h.hookId, 'late-1')).toBeUndefined();
    expect((await h.bot.store.activity.get(h.hookId)).lastDeliveryAt).toBeUndefined();
  });

  it("refuses the service's ping too, and counts nothing for the hook", async () => {
    const ping = JSON.stringify({ id: 'ping-1', event: 'ping', server: '1', at: h.now.ms, data: {} });
    const answer = await deliverAround(() => h.bot.store.hooks.remove(h.hookId), ping);
    expect(answer.status).toBe(404);
    expect((await h.bot.store.activity.get(h.hookId)).lastEvent).toBeUndefined();
  });

  it('is refused with 404 when the bot left the server meanwhile', async () => {
    const answer = await deliverAround(async () => {
      await h.bot.store.forgetGuild(GUILD_ID);
    });
    expect(answer.status).toBe(404);
    expect(await h.bot.store.deliveries.countOpen()).toBe(0);
  });
});
