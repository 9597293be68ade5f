import { afterEach, describe, expect, it } from 'vitest';

import { DEFAULT_RECORD_RETENTION_DAYS } from '../../../../src/features/record/store/community-record.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { Store } from '../../../../src/store/store.js';
import { SAMPLE_DELIVERIES } from '../../../fixtures/deliveries.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const DAY_MS = 24 * 60 * 60 * 1000;
const TABLES = ['record_case', 'record_player', 'record_shift', 'record_session', 'record_modcall'] as const;

/**
 * The community record's rows (cases, players, shifts, sessions, modcalls) are kept the server's retention, 400
 * days unless set: the sweep after that deletes them, and a younger row of each kind stays.
 */
describe.each(STORE_ENGINES)("the record's rows past their retention, on $name", ({ available, create }) => {
  let db: EngineDatabase | undefined;
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
    await db?.dispose();
  });

  it.skipIf(!available)('are gone at the first sweep past 400 days, every kind', async () => {
    db = await create();
    const engine = db;
    const t0 = Date.UTC(2026, 0, 1);
    let now = t0;
    store = await engine.open(() => now);
    const opened = store;
    const record = store.of(recordModule);
    /** One of each kind, all of it at `at`, numbered `n` so two sets do not merge. */
    const tell = async (n: number, at: number) => {
      const S = SAMPLE_DELIVERIES;
      const deliveries = [
        { ...S['case.created'], data: { case: { ...S['case.created'].data.case, number: n, createdAt: at } } },
        {
          ...S['shift.ended'],
          data: { shift: { ...S['shift.ended'].data.shift, id: n, startedAt: at, endedAt: at + 60_000, seconds: 60 } },
        },
        {
          ...S['session.started'],
          data: { session: { ...S['session.started'].data.session, id: n, startedAt: at } },
        },
        { ...S.modcall, data: { caller: { robloxId: `9${n}`, name: `Caller${n}` }, at } },
      ];
      for (const [i, delivery] of deliveries.entries()) {
        await opened.deliveries.accept({
          hookId: 'hook-1',
          guildId: GUILD,
          deliveryId: `d-${n}-${i}`,
          event: delivery.event,
          rawBody: JSON.stringify({ ...delivery, id: `d-${n}-${i}`, at }),
          receivedAt: at,
        });
      }
    };
    await tell(1, t0);
    // The younger set names another player, so the player's row is as young as its case.
    await tell(2, t0 + 10 * DAY_MS);
    await engine.exec(
      `UPDATE delivery SET raw_body = replace(raw_body, '2391045817', '555') WHERE delivery_id = 'd-2-0'`,
    );
    await record.recordPending(100);
    const count = async () =>
      Object.fromEntries(
        await Promise.all(
          TABLES.map(async (table) => [table, (await engine.query(`SELECT * FROM ${table}`)).length] as const),
        ),
      );
    expect(await count()).toEqual({
      record_case: 2,
      record_player: 2,
      record_shift: 2,
      record_session: 2,
      record_modcall: 2,
    });

    now = t0 + DEFAULT_RECORD_RETENTION_DAYS * DAY_MS - 1;
    await record.sweep(now);
    expect(Object.values(await count())).toEqual([2, 2, 2, 2, 2]);

    now = t0 + DEFAULT_RECORD_RETENTION_DAYS * DAY_MS + 1;
    await record.sweep(now);
    expect(await count()).toEqual({
      record_case: 1,
      record_player: 1,
      record_shift: 1,
      record_session: 1,
      record_modcall: 1,
    });
    const cases = await engine.query<{ number: number | string }>(`SELECT number FROM record_case`);
    expect(cases.map((row) => Number(row.number))).toEqual([2]);
  });
});
