import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';

import { STORE_MODULES } from '../../../src/features/index.js';
import { openStore } from '../../../src/store/open-store.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const GUILD = '222222222222222222';
const CHANNEL = '300000000000000001';

const dirs: Array<ReturnType<typeof makeTempDir>> = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) dir.remove();
});

/** A file as the versions before the schema left it: one keyv table per record kind, values `{"value":…}`. */
function writeOldLayout(file: string): void {
  const db = new Database(file);
  const table = (name: string, rows: Array<[string, unknown]>) => {
    db.exec(`CREATE TABLE ${name} (key VARCHAR(255) PRIMARY KEY, value TEXT)`);
    const insert = db.prepare(`INSERT INTO ${name} (key, value) VALUES (?, ?)`);
    for (const [key, value] of rows) insert.run(`${name}:${key}`, JSON.stringify({ value, expires: null }));
  };
  const entry = (seq: number, id: string, event: string) => ({
    seq,
    hookId: 'hook-1',
    guildId: GUILD,
    deliveryId: id,
    event,
    receivedAt: 1_000 + seq,
    render: 'event',
    rawBody: `{"id":"${id}"}`,
  });
  table('hooks', [
    ['hook-1', { hookId: 'hook-1', guildId: GUILD, webhookId: 'wh_1', secret: 's', events: ['all'], createdAt: 1 }],
  ]);
  table('guilds', [
    [
      GUILD,
      { guildId: GUILD, serverKey: 'sealed', defaultChannelId: null, routes: { modcall: CHANNEL }, mentions: {} },
    ],
  ]);
  table('outbox', [
    ['000000000000000', entry(0, 'old-1', 'modcall')],
    ['000000000000001', entry(1, 'old-2', 'modcall')],
    ['000000000000002', entry(2, 'old-3', 'case.created')],
  ]);
  table('sends', [[CHANNEL, { channelId: CHANNEL, nonce: 'nonce-before-upgrade', seqs: [0] }]]);
  table('seen', [['hook-1:posted-1', { at: 500 }]]);
  db.close();
}

describe('upgrading a store file written before the schema', () => {
  it('keeps hooks, settings, waiting deliveries in order, a written-down message and posted ids', async () => {
    const dir = makeTempDir();
    dirs.push(dir);
    const file = `${dir.path}/bot.sqlite`;
    writeOldLayout(file);

    const store = await openStore(`sqlite://${file}`, STORE_MODULES);
    try {
      expect(await store.hooks.get('hook-1')).toMatchObject({ guildId: GUILD, webhookId: 'wh_1' });
      expect(await store.guilds.get(GUILD)).toMatchObject({ serverKey: 'sealed', routes: { modcall: CHANNEL } });
      expect((await store.deliveries.nextFor(CHANNEL, 10)).map((e) => [e.deliveryId, e.writtenNonce])).toEqual([
        ['old-1', 'nonce-before-upgrade'],
      ]);
      expect(await store.deliveries.listHeld(GUILD, { offset: 0, limit: 10 })).toMatchObject([
        { deliveryId: 'old-3', kind: 'unrouted' },
      ]);
      expect(await store.deliveries.countOpen()).toBe(3);
      expect(await store.deliveries.stateOf('hook-1', 'posted-1')).toBe('posted');
      expect(await store.deliveries.accept({ ...delivery('posted-1') })).toBe('duplicate');
      const tables = new Database(file, { readonly: true })
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('hooks', 'outbox', 'seen')`)
        .all();
      expect(tables).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

function delivery(id: string) {
  return { hookId: 'hook-1', guildId: GUILD, deliveryId: id, event: 'modcall', receivedAt: 2_000, rawBody: '{}' };
}
