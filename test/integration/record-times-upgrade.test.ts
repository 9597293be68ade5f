import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';

import { migrateStore } from '../../scripts/migrate-store/copy-store.js';
import { openStore } from '../../src/store/open-store.js';
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

/**
 * Undoes the set-aside items' migration (its table, and the writer's index that replaced the community record's
 * `delivery_unrecorded`), the on-duty role holders', the coverage guard's and the duty feature's migrations (their
 * columns go with duty_guild, their indexes with record_session and record_shift), the quotas' and digest's, the
 * record sweep's (its column and index go with record_guild) and the community record's, so the upgrade runs them
 * again.
 */
const UNDO_COMMUNITY_RECORD = `DROP TABLE duty_guild; DROP TABLE duty_role_holder; DROP TABLE digest_post;
  DROP TABLE digest_schedule; DROP TABLE duty_quota; DROP TABLE set_aside; DROP INDEX delivery_recording; ALTER TABLE delivery DROP COLUMN unrecorded;
  ${['record_guild', 'record_case', 'record_player', 'record_shift', 'record_session', 'record_modcall']
    .map((table) => `DROP TABLE ${table};`)
    .join(' ')}`;

/** What the upgrade leaves: no tombstone, and each card document's time (a caller's: the time of the upgrade). */
async function expectUpgraded(url: string): Promise<void> {
  const store = await openStore(url);
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
    await (await openStore(`sqlite://${file}`)).close();
    // Back to schema 5, as the earlier version wrote it.
    const db = new Database(file);
    db.exec(UNDO_COMMUNITY_RECORD);
    db.exec('DROP INDEX record_due; DROP INDEX delivery_parked; ALTER TABLE record DROP COLUMN at');
    db.pragma('user_version = 5');
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
      await (await openStore(database.url)).close();
      // Back to schema 6, as the earlier version left it (what later migrations made is dropped with their rows).
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        // Every later step undone too (schema 8's accept function, schema 9's lease epochs), so the upgrade runs
        // from 6 again.
        await client.query(UNDO_COMMUNITY_RECORD);
        await client.query(`DROP FUNCTION bridge_accept_batch(JSONB); DROP TABLE feed_lease;
                          DROP INDEX record_due; DROP INDEX delivery_parked; ALTER TABLE record DROP COLUMN at;
                          DELETE FROM bridge_migration WHERE version >= 7`);
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
    const source = await openStore(from);
    await source.documents.update(
      'card',
      'g1:case:1:1',
      () => ({ postedAt: 1_000 }),
      () => 1_000,
    );
    await source.documents.update('alert_settings', 'g1', () => ({ channelId: 'c' }));
    await source.close();

    await migrateStore(from, to);
    const target = await openStore(to);
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
