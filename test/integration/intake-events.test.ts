import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { renderEntry } from '../../src/feed/render-entry.js';
import type { OutboxEntry } from '../../src/store/outbox.js';
import { EVENT_NAMES } from '../../src/upstream/schemas.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { startIntakeHarness, type IntakeHarness } from '../helpers/intake-harness.js';
import { anyString } from '../helpers/matchers.js';

/** Titles of the plain rendering: an unknown event, or a known one whose data does not match its schema. */
const FALLBACK_TITLE = /^(Unknown event|Unexpected data) · /;

/** The title an entry is posted with (rendering classifies the stored body). */
const titleOf = (entry: OutboxEntry | undefined) => entry && renderEntry(entry, { channelId: '1' }).embeds[0]?.title;

let h: IntakeHarness;
beforeEach(async () => {
  h = await startIntakeHarness();
});
afterEach(async () => {
  await h.stop();
});

describe('each documented event', () => {
  it.each(EVENT_NAMES)('%s is accepted and lands in the outbox once, for its own rendering', async (name) => {
    const payload = JSON.stringify(SAMPLE_DELIVERIES[name]);
    const response = await h.postSigned(payload);
    expect(response.status).toBe(204);
    const entries = h.bot.store.outbox.list();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      hookId: h.hookId,
      guildId: '111111111111111111',
      deliveryId: SAMPLE_DELIVERIES[name].id,
      event: name,
      rawBody: payload,
    });
    expect(titleOf(entries[0])).not.toMatch(FALLBACK_TITLE);
  });
});

describe('deliveries our schemas do not know', () => {
  it('keeps an unknown event, shown with the plain rendering', async () => {
    const payload = JSON.stringify({
      id: 'dlv_new',
      event: 'vehicle.spawned',
      server: '4821337',
      at: 1,
      data: { car: 'Falcon' },
    });
    expect((await h.postSigned(payload)).status).toBe(204);
    expect(h.bot.store.outbox.list()).toMatchObject([{ event: 'vehicle.spawned', rawBody: payload }]);
    expect(titleOf(h.bot.store.outbox.list()[0])).toBe('Unknown event · vehicle.spawned');
  });

  it('keeps a known event whose data does not match, shown plain, and answers 2xx', async () => {
    const mismatched = { ...SAMPLE_DELIVERIES['case.created'], data: { case: { number: 'one thousand' } } };
    const payload = JSON.stringify(mismatched);
    expect((await h.postSigned(payload)).status).toBe(204);
    expect(h.bot.store.outbox.list()).toMatchObject([{ event: 'case.created', rawBody: payload }]);
    expect(titleOf(h.bot.store.outbox.list()[0])).toBe('Unexpected data · case.created');
  });

  it('keeps extra fields the service adds, and any evidence value', async () => {
    const withExtras = {
      ...SAMPLE_DELIVERIES['case.created'],
      region: 'eu',
      data: {
        case: { ...SAMPLE_DELIVERIES['case.created'].data.case, evidence: { clips: [1, 2], note: null }, severity: 3 },
      },
    };
    const payload = JSON.stringify(withExtras);
    expect((await h.postSigned(payload)).status).toBe(204);
    expect(h.bot.store.outbox.list()).toMatchObject([{ rawBody: payload }]);
    expect(titleOf(h.bot.store.outbox.list()[0])).not.toMatch(FALLBACK_TITLE);
  });
});

describe('restart on the same SQLite file', () => {
  it('keeps every outbox entry in order, and seen ids still deduplicate', async () => {
    const payloads = EVENT_NAMES.map((name) => JSON.stringify(SAMPLE_DELIVERIES[name]));
    for (const payload of payloads) expect((await h.postSigned(payload)).status).toBe(204);
    // The feed posted the first one: its id moves from the outbox to the seen ids.
    const [first] = h.bot.store.outbox.list();
    if (!first) throw new Error('outbox is empty');
    await h.bot.store.seen.add(first.hookId, first.deliveryId);
    await h.bot.store.outbox.remove([first]);

    await h.restart();

    expect(h.bot.store.outbox.list().map((e) => e.rawBody)).toEqual(payloads.slice(1));
    expect(h.bot.store.seen.has(h.hookId, first.deliveryId)).toBe(true);
    expect((await h.postSigned(payloads[0] ?? '')).status).toBe(200);
    expect((await h.postSigned(payloads[3] ?? '')).status).toBe(200);
    expect(h.bot.store.outbox.size).toBe(payloads.length - 1);

    const next = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'after-restart' });
    expect((await h.postSigned(next)).status).toBe(204);
    expect(h.bot.store.outbox.list().at(-1)?.deliveryId).toBe('after-restart');
  });
});

describe('a store that cannot write', () => {
  it('answers 500 (so the service retries) and never 2xx for a delivery it did not keep', async () => {
    const { default: sqlite3 } = await import('sqlite3');
    const db = new sqlite3.Database(h.dbFile);
    await new Promise<void>((resolve, reject) =>
      db.run('DROP TABLE outbox', (error) => (error ? reject(error) : resolve())),
    );
    await new Promise<void>((resolve) => db.close(() => resolve()));

    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'not-kept' });
    const response = await h.postSigned(payload);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'internal_error', message: anyString() } });
    expect(h.bot.store.outbox.holds(h.hookId, 'not-kept')).toBe(false);
    // The retry is not mistaken for a duplicate of the delivery that failed.
    expect((await h.postSigned(payload)).status).toBe(500);
  });
});
