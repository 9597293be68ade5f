import { afterEach, describe, expect, it } from 'vitest';

import { AUDIT_KEPT_MS, createAuditFeature } from '../../../../src/features/audit/feature.js';
import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import type { Store } from '../../../../src/store/store.js';
import { STORE_ENGINES, type EngineDatabase } from '../../../helpers/store-engines.js';

const GUILD = '222222222222222222';
const DAY_MS = 24 * 60 * 60 * 1000;

/** Audit lines (admin actions, lookups, people forgotten) are kept 90 days: the hourly sweep drops older ones. */
describe.each(STORE_ENGINES)('audit lines past their retention, on $name', ({ available, create }) => {
  let db: EngineDatabase | undefined;
  let store: Store | undefined;

  afterEach(async () => {
    await store?.close();
    await db?.dispose();
  });

  it.skipIf(!available)('are gone at the first sweep after 90 days, every kind; younger ones stay', async () => {
    db = await create();
    const t0 = Date.UTC(2026, 0, 1);
    let now = t0;
    store = await db.open(() => now);
    const audit = createAuditFeature({ store, clock: () => now });
    const log = store.of(auditModule);
    const line = (action: string, at: number, kind: 'action' | 'lookup' | 'forget', subject?: string) =>
      log.append({
        guildId: GUILD,
        userId: '400000000000000001',
        action,
        result: 'done',
        detail: null,
        at,
        kind,
        ...(subject ? { subject } : {}),
      });
    await line('/case lookup player:SpeedyRacer_09 (2391045817)', t0, 'lookup', 'player:2391045817');
    await line('/record forget: a player (3 rows of 2 kinds)', t0, 'forget');
    await line('/feed off', t0, 'action');
    await line('/staff stats member:<@400000000000000002> (this month)', t0 + 10 * DAY_MS, 'lookup', 'member:1');

    // Not yet: 90 days to the millisecond.
    now = t0 + AUDIT_KEPT_MS;
    await audit.sweep?.(now);
    expect(await db.query(`SELECT action FROM audit`)).toHaveLength(4);

    now = t0 + AUDIT_KEPT_MS + 1;
    await audit.sweep?.(now);
    const left = await db.query<{ action: string }>(`SELECT action FROM audit`);
    expect(left.map((row) => row.action)).toEqual(['/staff stats member:<@400000000000000002> (this month)']);
  });
});
