import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { BOT_USER_ID, type AuditLog } from '../../../../src/features/audit/store/audit-log.js';
import { auditModule } from '../../../../src/features/audit/store/audit-module.js';
import { dropOldHeld } from '../../../../src/features/health/drop-old-held.js';
import { STORE_MODULES } from '../../../../src/features/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import { openStore, type Store } from '../../../../src/store/open-store.js';
import { captureLogs } from '../../../helpers/capture-logs.js';
import { makeTempDir } from '../../../helpers/temp-dir.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 25, 12);

/** Held deliveries past their retention: dropped, with one log line and an audit line per server. */
describe('dropping old held deliveries', () => {
  let dir: ReturnType<typeof makeTempDir>;
  let store: Store;

  beforeEach(async () => {
    dir = makeTempDir();
    store = await openStore(`sqlite://${dir.path}/bot.sqlite`, STORE_MODULES, () => NOW);
  });

  afterEach(async () => {
    await store.close();
    dir.remove();
  });

  /** No route in either server: each delivery is held (unrouted) from the moment it came. */
  const hold = (guildId: string, deliveryId: string, receivedAt: number) =>
    store.deliveries.accept({
      hookId: `hook-${guildId}`,
      guildId,
      deliveryId,
      event: 'case.created',
      rawBody: `{"id":"${deliveryId}"}`,
      receivedAt,
    });

  it('drops entries held longer than 30 days, logs it once, and writes one audit line per server', async () => {
    await hold('g1', 'old-1', NOW - 40 * DAY);
    await hold('g1', 'old-2', NOW - 31 * DAY);
    await hold('g2', 'old-3', NOW - 35 * DAY);
    await hold('g1', 'recent', NOW - 29 * DAY);
    // The community record's writer has read them (a held case it has not read yet outlives its retention).
    await store.of(recordModule).recordPending(100);
    const logs = captureLogs();

    const dropped = await dropOldHeld({
      deliveries: store.deliveries,
      audit: store.of(auditModule),
      clock: () => NOW,
      logger: logs.logger,
    });

    expect(dropped).toBe(3);
    expect((await store.deliveries.listHeld('g1', { offset: 0, limit: 10 })).map((e) => e.deliveryId)).toEqual([
      'recent',
    ]);
    expect(await store.deliveries.listHeld('g2', { offset: 0, limit: 10 })).toEqual([]);
    expect(logs.lines.filter((line) => line.includes('held deliveries past their retention dropped'))).toHaveLength(1);
    expect(logs.text()).toContain('"dropped":3');
    expect(await store.of(auditModule).latest('g1', 10)).toEqual([
      {
        guildId: 'g1',
        userId: BOT_USER_ID,
        action: 'Dropped 2 held deliveries older than 30 days',
        result: 'done',
        detail: null,
        at: NOW,
      },
    ]);
    expect((await store.of(auditModule).latest('g2', 10)).map((entry) => entry.action)).toEqual([
      'Dropped 1 held delivery older than 30 days',
    ]);
  });

  it("writes the other servers' audit lines when one server's fails, and logs the one that failed", async () => {
    await hold('g1', 'old-1', NOW - 40 * DAY);
    await hold('g2', 'old-2', NOW - 35 * DAY);
    await hold('g3', 'old-3', NOW - 33 * DAY);
    await store.of(recordModule).recordPending(100);
    const logs = captureLogs();
    // The audit log refuses g1's line, as a database refuses a row it cannot take.
    const audit: Pick<AuditLog, 'append'> = {
      append: (entry) =>
        entry.guildId === 'g1'
          ? Promise.reject(new Error('the test refuses this audit line'))
          : store.of(auditModule).append(entry),
    };

    expect(await dropOldHeld({ deliveries: store.deliveries, audit, clock: () => NOW, logger: logs.logger })).toBe(3);
    expect(await store.deliveries.countOpen()).toBe(0);
    expect(await store.of(auditModule).latest('g1', 10)).toEqual([]);
    for (const guildId of ['g2', 'g3']) {
      expect((await store.of(auditModule).latest(guildId, 10)).map((entry) => entry.action)).toEqual([
        'Dropped 1 held delivery older than 30 days',
      ]);
    }
    expect(logs.text()).toContain('auditing held deliveries dropped failed');
    expect(logs.text()).toContain('the test refuses this audit line');
  });

  it('says nothing and audits nothing when no held entry is that old', async () => {
    await hold('g1', 'recent', NOW - 29 * DAY);
    // The community record's writer has read them (a held case it has not read yet outlives its retention).
    await store.of(recordModule).recordPending(100);
    const logs = captureLogs();
    expect(
      await dropOldHeld({
        deliveries: store.deliveries,
        audit: store.of(auditModule),
        clock: () => NOW,
        logger: logs.logger,
      }),
    ).toBe(0);
    expect(logs.text()).not.toContain('held deliveries past their retention dropped');
    expect(await store.of(auditModule).latest('g1', 10)).toEqual([]);
    expect(await store.deliveries.countOpen()).toBe(1);
  });
});
