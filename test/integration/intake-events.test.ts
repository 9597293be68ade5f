import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { renderEntry } from '../../src/feed/render-entry.js';
import type { NewDelivery } from '../../src/store/deliveries.js';
import { EVENT_NAMES } from '../../src/upstream/schemas.js';
import { SAMPLE_DELIVERIES } from '../fixtures/deliveries.js';
import { GUILD_ID, startIntakeHarness, type IntakeHarness } from '../helpers/intake-harness.js';
import { anyString } from '../helpers/matchers.js';

/** Titles of the plain rendering: an unknown event, or a known one whose data does not match its schema. */
const FALLBACK_TITLE = /^(Unknown event|Unexpected data) · /;

/** The title an entry is posted with (rendering classifies the stored body). */
const titleOf = (entry: NewDelivery | undefined) => entry && renderEntry(entry, { channelId: '1' }).embeds[0]?.title;

const CHANNEL_ID = '300000000000000001';

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
    const entries = await h.bot.store.deliveries.listOpen();
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
    expect(await h.bot.store.deliveries.listOpen()).toMatchObject([{ event: 'vehicle.spawned', rawBody: payload }]);
    expect(titleOf((await h.bot.store.deliveries.listOpen())[0])).toBe('Unknown event · vehicle.spawned');
  });

  it('keeps a known event whose data does not match, shown plain, and answers 2xx', async () => {
    const mismatched = { ...SAMPLE_DELIVERIES['case.created'], data: { case: { number: 'one thousand' } } };
    const payload = JSON.stringify(mismatched);
    expect((await h.postSigned(payload)).status).toBe(204);
    expect(await h.bot.store.deliveries.listOpen()).toMatchObject([{ event: 'case.created', rawBody: payload }]);
    expect(titleOf((await h.bot.store.deliveries.listOpen())[0])).toBe('Unexpected data · case.created');
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
    expect(await h.bot.store.deliveries.listOpen()).toMatchObject([{ rawBody: payload }]);
    expect(titleOf((await h.bot.store.deliveries.listOpen())[0])).not.toMatch(FALLBACK_TITLE);
  });
});

describe('restart on the same SQLite file', () => {
  it('keeps every outbox entry in order, and seen ids still deduplicate', async () => {
    await h.bot.store.guilds.update(GUILD_ID, (settings) => ({ ...settings, defaultChannelId: CHANNEL_ID }));
    const payloads = EVENT_NAMES.map((name) => JSON.stringify(SAMPLE_DELIVERIES[name]));
    for (const payload of payloads) expect((await h.postSigned(payload)).status).toBe(204);
    // The feed posted the first one: written down, sent, confirmed.
    const [first] = await h.bot.store.deliveries.nextFor(CHANNEL_ID, 1);
    if (!first) throw new Error('nothing is waiting');
    expect(await h.bot.store.deliveries.writeDown(CHANNEL_ID, 'nonce-1', [first.seq])).toBe(true);
    await h.bot.store.deliveries.ack(CHANNEL_ID, 'nonce-1', Date.now());

    await h.restart();

    expect((await h.bot.store.deliveries.listOpen()).map((e) => e.rawBody)).toEqual(payloads.slice(1));
    expect((await h.bot.store.deliveries.stateOf(h.hookId, first.deliveryId)) === 'posted').toBe(true);
    expect((await h.postSigned(payloads[0] ?? '')).status).toBe(200);
    expect((await h.postSigned(payloads[3] ?? '')).status).toBe(200);
    expect(await h.bot.store.deliveries.countOpen()).toBe(payloads.length - 1);

    const next = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'after-restart' });
    expect((await h.postSigned(next)).status).toBe(204);
    expect((await h.bot.store.deliveries.listOpen()).at(-1)?.deliveryId).toBe('after-restart');
  });
});

describe('a store that cannot write', () => {
  it('answers 500 (so the service retries) and never 2xx for a delivery it did not keep', async () => {
    // Another connection makes every new delivery fail to store, as a full disk would.
    const db = new Database(h.dbFile);
    db.exec(`CREATE TRIGGER refuse_deliveries BEFORE INSERT ON delivery BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    db.close();

    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'not-kept' });
    const response = await h.postSigned(payload);
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'internal_error', message: anyString() } });
    expect((await h.bot.store.deliveries.stateOf(h.hookId, 'not-kept')) !== undefined).toBe(false);
    // The retry is not mistaken for a duplicate of the delivery that failed.
    expect((await h.postSigned(payload)).status).toBe(500);
  });

  it('still answers 401 to a bad signature when the refusal cannot be counted, and says so in the log', async () => {
    const db = new Database(h.dbFile);
    db.exec(`CREATE TRIGGER refuse_counts BEFORE INSERT ON hook_activity BEGIN SELECT RAISE(ABORT, 'disk full'); END`);
    db.close();
    const payload = JSON.stringify({ ...SAMPLE_DELIVERIES.modcall, id: 'badly-signed' });
    const response = await h.postSigned(payload, { secret: 'not-the-secret' });
    expect(response.status).toBe(401);
    expect(h.logs.text()).toContain('recording a refusal failed');
  });
});
