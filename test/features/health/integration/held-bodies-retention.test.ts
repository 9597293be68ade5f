import { afterEach, describe, expect, it } from 'vitest';

import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { dropOldHeld, HELD_KEPT_DAYS } from '../../../../src/features/health/drop-old-held.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { Store } from '../../../../src/store/store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A delivery's body is kept while it is held (no channel for it), 30 days: the hourly sweep then drops the
 * delivery, body and all; one held since less stays with its body.
 */
describe.each(STORE_ENGINES)('held deliveries past their retention, on $name', ({ available, create }) => {
  let db: EngineDatabase | undefined;
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
    await db?.dispose();
  });

  it.skipIf(!available)('lose their body at the first sweep past 30 days', async () => {
    db = await create();
    const t0 = Date.UTC(2026, 0, 1);
    let now = t0;
    store = await db.open(() => now);
    const opened = store;
    const hold = (deliveryId: string, receivedAt: number) =>
      opened.deliveries.accept({
        hookId: 'hook-1',
        guildId: GUILD,
        deliveryId,
        event: 'modcall',
        rawBody: JSON.stringify({ id: deliveryId, caller: { robloxId: '2391045817', name: 'SpeedyRacer_09' } }),
        receivedAt,
      });
    await hold('old', t0);
    await hold('young', t0 + DAY_MS);
    // The record's writer read them (one it has not read yet keeps its body until it has).
    await store.of(recordModule).recordPending(100);
    const sweep = () =>
      dropOldHeld({
        deliveries: opened.deliveries,
        audit: opened.of(auditModule),
        clock: () => now,
        logger: captureLogs().logger,
      });

    now = t0 + HELD_KEPT_DAYS * DAY_MS - 1;
    await sweep();
    expect(await db.query(`SELECT delivery_id FROM delivery WHERE raw_body IS NOT NULL`)).toHaveLength(2);

    now = t0 + HELD_KEPT_DAYS * DAY_MS + 1;
    await sweep();
    const left = await db.query<{ delivery_id: string; raw_body: string | null }>(
      `SELECT delivery_id, raw_body FROM delivery`,
    );
    expect(left.map((row) => row.delivery_id)).toEqual(['young']);
    expect(JSON.stringify(await db.query(`SELECT * FROM delivery`))).not.toContain('"old"');
  });
});
