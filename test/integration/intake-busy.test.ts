import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { STORE_MODULES } from '../../src/features/index.js';
import { listen } from '../../src/http-server.js';
import { createApp } from '../../src/intake/create-app.js';
import { IntakeFailures } from '../../src/intake/intake-failures.js';
import { openStore } from '../../src/store/open-store.js';
import { createSecretBox } from '../../src/store/secret-box.js';
import { signDelivery } from '../../src/upstream/signature.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';

const HOOK_ID = 'abcdefabcdefabcdefabcdefabcdef01';
const SECRET = 'whsec_busy_intake_0123456789';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe.skipIf(!POSTGRES_URL)('the intake past its bounded queue', () => {
  it('answers 503 with Retry-After once 2 deliveries wait for the store, warns once, and stores the ones it held', async () => {
    const database = await createTestDatabase();
    cleanups.push(() => database.drop());
    const store = await openStore(database.url, STORE_MODULES);
    cleanups.push(() => store.close());
    await store.hooks.save({
      hookId: HOOK_ID,
      guildId: '111111111111111111',
      webhookId: 'wh_1',
      secret: SECRET,
      events: ['all'],
      createdAt: 1,
    });
    const logs = captureLogs();
    const intakeFailures = new IntakeFailures();
    const app = createApp({
      hooks: store.hooks,
      deliveries: store.deliveries,
      activity: store.activity,
      intakeFailures,
      secrets: createSecretBox(undefined),
      clock: Date.now,
      logger: logs.logger,
      health: () => Promise.resolve({ healthy: true, report: {} }),
      maxPendingAccepts: 2,
    });
    const http = await listen(app, 0, '127.0.0.1');
    cleanups.push(() => http.close());
    const deliver = (id: string) => {
      const body = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id });
      const timestamp = String(Math.floor(Date.now() / 1000));
      return fetch(`${http.url}/webhooks/${HOOK_ID}`, {
        method: 'POST',
        headers: { 'x-service-timestamp': timestamp, 'x-service-signature': signDelivery(SECRET, timestamp, body) },
        body,
      });
    };

    // The store falls behind for real: another session holds the delivery table, so accepts wait.
    const holder = new pg.Client({ connectionString: database.url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE delivery IN ACCESS EXCLUSIVE MODE');
    const accepting = vi.spyOn(store.deliveries, 'accept');
    const held = [deliver('held-1')];
    await waitForLockWaiters(holder, 1);
    // The second waits in the store's queue for the guild's next batch (one batch of a guild at a time).
    held.push(deliver('held-2'));
    await vi.waitFor(() => expect(accepting).toHaveBeenCalledTimes(2));

    const refused = [await deliver('refused-1'), await deliver('refused-2')];
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(await answer.json()).toEqual({
        error: { code: 'busy', message: 'too many deliveries are waiting to be stored; retry later' },
      });
    }
    // The service counts each 503 toward switching the webhook off: so does the feed's health alert.
    expect(intakeFailures.streakOf(HOOK_ID)).toMatchObject({
      guildId: '111111111111111111',
      count: 2,
      detail: 'the store fell behind: 2 deliveries waited to be stored, and the next were answered 503',
    });
    const warnings = logs.lines.filter((line) => line.includes('the store falls behind'));
    expect(warnings).toHaveLength(1);
    expect(logs.text()).not.toContain(SECRET);

    await holder.query('ROLLBACK');
    expect((await Promise.all(held)).map((answer) => answer.status)).toEqual([204, 204]);
    // The service's retry of a refused one is taken once the store caught up.
    expect((await deliver('refused-1')).status).toBe(204);
    expect(intakeFailures.streakOf(HOOK_ID)).toBeUndefined();
    expect((await store.deliveries.listOpen()).map((entry) => entry.deliveryId).sort()).toEqual([
      'held-1',
      'held-2',
      'refused-1',
    ]);
  });
});

/** Waits until a session waits for a lock the holder has: the accepts have reached the store. */
async function waitForLockWaiters(holder: pg.Client, atLeast: number): Promise<void> {
  for (let tries = 0; tries < 200; tries += 1) {
    // The holder is inside a transaction, which would otherwise see one snapshot of the statistics throughout.
    await holder.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await holder.query<{ waiting: number }>(
      `SELECT count(*)::int AS waiting FROM pg_stat_activity
       WHERE datname = current_database() AND wait_event_type = 'Lock' AND state = 'active'
         AND query LIKE '%bridge_accept_placed%'`,
    );
    if ((rows[0]?.waiting ?? 0) >= atLeast) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no accept waits for the lock');
}
