import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { migrateStore } from '../../scripts/migrate-store/copy-store.js';
import { STORE_MODULES } from '../../src/features/index.js';
import { openStore } from '../../src/store/open-store.js';
import { migrateLegacyPostgres } from '../fixtures/legacy-store/postgres-legacy-migrations.js';
import { migrateLegacySqlite } from '../fixtures/legacy-store/sqlite-legacy-migrations.js';
import { createTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** The cards' documents as a version before document times left them: tombstones, and times only in the JSON. */
const EARLIER_DOCUMENTS: ReadonlyArray<[kind: string, key: string, value: unknown]> = [
  ['modcall_card', 'g1:gone', null],
  ['card', 'g1:case:1:2', null],
  ['modcall_escalation', 'g2', null],
  ['card', 'g1:case:1:1', { channelId: 'c', messageId: 'm1', embedIndex: 0, embedCount: 1, postedAt: 1_000 }],
  ['card_message', 'c:m1', { embeds: [], postedAt: 1_000 }],
  ['card_message', 'c:m0', { embeds: [] }],
  ['card_final', 'g1:case:1:3', { deliveryId: 'd', event: 'case.voided', rawBody: '{}', at: 3_000 }],
  ['modcall_card', 'g1:m2', { postedAt: 2_000 }],
  ['modcall_caller', 'g1:1:9', 'm2'],
  ['alert_settings', 'g1', { channelId: 'c' }],
];

/** What the upgrade leaves: no tombstone, and each card document's time (a caller's: the time of the upgrade). */
async function expectUpgraded(url: string): Promise<void> {
  const store = await openStore(url, STORE_MODULES);
  try {
    expect(await store.documents.kinds()).toEqual([
      'alert_settings',
      'card',
      'card_final',
      'card_message',
      'modcall_caller',
      'modcall_card',
    ]);
    expect(await store.documents.list('card')).toEqual([
      { key: 'g1:case:1:1', value: expect.anything() as unknown, at: 1_000 },
    ]);
    expect((await store.documents.list('card_message')).map(({ key, at }) => [key, at])).toEqual([
      ['c:m0', 0],
      ['c:m1', 1_000],
    ]);
    expect((await store.documents.list('card_final')).map(({ at }) => at)).toEqual([3_000]);
    expect((await store.documents.list('modcall_card')).map(({ key, at }) => [key, at])).toEqual([['g1:m2', 2_000]]);
    const [caller] = await store.documents.list('modcall_caller');
    expect(caller?.at).toBeGreaterThan(Date.now() - 60_000);
    expect(await store.documents.list('alert_settings')).toEqual([{ key: 'g1', value: { channelId: 'c' } }]);
  } finally {
    await store.close();
  }
}

describe('upgrading a store written before documents had times', () => {
  it('SQLite: drops the cards’ tombstones and gives each card document its time', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const file = `${dir.path}/bot.sqlite`;
    // Schema 5, as the earlier version wrote it (its numbered steps, frozen in the fixture).
    const db = new Database(file);
    migrateLegacySqlite(db, 5);
    const insert = db.prepare('INSERT INTO record (kind, key, value) VALUES (?, ?, ?)');
    for (const [kind, key, value] of EARLIER_DOCUMENTS) insert.run(kind, key, JSON.stringify(value));
    db.close();

    await expectUpgraded(`sqlite://${file}`);
  });

  it.skipIf(!POSTGRES_URL)(
    'PostgreSQL: drops the cards’ tombstones and gives each card document its time',
    async () => {
      const database = await createTestDatabase();
      cleanups.push(() => database.drop());
      // Schema 6, as the earlier version left it (its numbered steps, frozen in the fixture).
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await migrateLegacyPostgres(client, 6);
        for (const [kind, key, value] of EARLIER_DOCUMENTS) {
          await client.query('INSERT INTO record (kind, key, value) VALUES ($1, $2, $3)', [
            kind,
            key,
            JSON.stringify(value),
          ]);
        }
      } finally {
        await client.end();
      }

      await expectUpgraded(database.url);
    },
  );

  it('migrate-store copies each document with its time', async () => {
    const dir = makeTempDir();
    cleanups.push(() => dir.remove());
    const from = `sqlite://${dir.path}/from.sqlite`;
    const to = `sqlite://${dir.path}/to.sqlite`;
    const source = await openStore(from, STORE_MODULES);
    await source.documents.update(
      'card',
      'g1:case:1:1',
      () => ({ postedAt: 1_000 }),
      () => 1_000,
    );
    await source.documents.update('alert_settings', 'g1', () => ({ channelId: 'c' }));
    await source.close();

    await migrateStore(from, to);
    const target = await openStore(to, STORE_MODULES);
    try {
      expect(await target.documents.listDue('card', 1_000, 10)).toEqual([
        { key: 'g1:case:1:1', value: { postedAt: 1_000 }, at: 1_000 },
      ]);
      expect(await target.documents.list('alert_settings')).toEqual([{ key: 'g1', value: { channelId: 'c' } }]);
    } finally {
      await target.close();
    }
  });
});
