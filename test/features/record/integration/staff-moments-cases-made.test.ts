import { expect, it } from 'vitest';

import { staffMomentsOf } from '../../../../src/features/record/index.js';
import { recordModule } from '../../../../src/features/record/store/record-module.js';
import type { Store } from '../../../../src/store/store.js';
import { describeOnEngines } from '../../../properties/play-community.js';
import { caseCreated, deliver, MINUTE } from '../../conduct/integration/conduct-scene.js';

/*
 * The record read as of a moment lists a guild's cases of a time range up to a limit (the conduct guard judges
 * again the first page of a month's cases when a shift starts a server's use of shifts): the first ones by time, then
 * server and number, whatever order they were merged in, even where the limit falls among cases of one minute.
 */

const T = Date.UTC(2026, 4, 4, 20);

async function recordAll(store: Store): Promise<void> {
  const record = store.of(recordModule);
  for (;;) {
    const pass = await record.recordPending(50);
    if (pass.recorded + pass.skipped === 0) break;
  }
}

describeOnEngines('the cases a guild made in a range', (engine) => {
  it('are the first by time, then number, when the limit falls among cases of one minute', async () => {
    const store = engine.store();
    const guildId = engine.nextGuild();
    // Merged newest number first: the record holds the minute's cases in the reverse of their order.
    await deliver(store, guildId, [
      caseCreated(20, T - MINUTE, { type: 'warn' }),
      ...[9, 8, 7, 6, 5, 4, 3, 2, 1].map((number) => caseCreated(number, T, { type: number % 2 ? 'ban' : 'kick' })),
      caseCreated(30, T + MINUTE),
    ]);
    await recordAll(store);
    const moments = staffMomentsOf(store);
    const range = { from: T - 5 * MINUTE, to: T + 5 * MINUTE };
    const numbers = async (limit: number, type?: string) =>
      (await moments.casesMadeIn(guildId, range, limit, type)).map((found) => found.number);

    expect(await numbers(4)).toEqual([20, 1, 2, 3]);
    expect(await numbers(3, 'ban')).toEqual([1, 3, 5]);
    expect(await numbers(11)).toEqual([20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 30]);
    expect(await numbers(50)).toEqual([20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 30]);
    expect(await numbers(1)).toEqual([20]);
  });
});
