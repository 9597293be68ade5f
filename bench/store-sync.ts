import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { STORE_MODULES } from '../src/features/index.js';
import { openSqliteStore } from '../src/store/sqlite/open-sqlite-store.js';
import type { Store } from '../src/store/store.js';
import type { BenchGroup } from './group.js';
import { BENCH_GUILD_ID, makeDeliveryBody, makeDeliveryId, makeRunTag } from './lib/delivery.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * store.sync_full_vs_normal: deliveries accepted per second with `synchronous=FULL` divided by the same with
 * `synchronous=NORMAL`, both through the bot's own store (openSqliteStore: better-sqlite3, WAL, group commit),
 * the intake's path (`store.deliveries.accept`). FULL is what the bot runs; NORMAL differs only in that PRAGMA.
 * Each variant checks the PRAGMAs in effect before it is measured.
 */
const ROUNDS = roundCount(5);
const CONCURRENCY = 10;
const WARMUP_APPENDS = 100;
const CONCURRENT_APPENDS = 1_000;
const SEQUENTIAL_APPENDS = 300;

type Mode = 'FULL' | 'NORMAL';
const MODES: readonly Mode[] = ['FULL', 'NORMAL'];

function openForMode(file: string, mode: Mode): Store {
  return openSqliteStore(file, Date.now, {
    modules: STORE_MODULES,
    ...(mode === 'NORMAL' ? { synchronous: 'NORMAL' } : {}),
  });
}

/** Appends per second for `count` appends with `concurrency` kept in flight (as concurrent requests would). */
async function appendRate(store: Store, count: number, concurrency: number): Promise<number> {
  const tag = makeRunTag();
  let n = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (n < count) {
        const deliveryId = makeDeliveryId(tag, n++);
        await store.deliveries.accept({
          hookId: 'hook_bench',
          guildId: BENCH_GUILD_ID,
          deliveryId,
          event: 'case.created',
          rawBody: makeDeliveryBody(deliveryId),
          receivedAt: Date.now(),
        });
      }
    }),
  );
  return count / ((performance.now() - start) / 1000);
}

/**
 * A fixed number of appends on a fresh file after a short warm-up: a faster variant does not write more rows
 * (and so pay for more WAL checkpoints) than a slower one.
 */
async function appendRateOnFreshFile(mode: Mode, count: number, concurrency: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-store-'));
  const store = openForMode(join(dir, 'store.sqlite'), mode);
  try {
    await appendRate(store, WARMUP_APPENDS, concurrency);
    return await appendRate(store, count, concurrency);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function measure(mode: Mode): Promise<Rates> {
  return {
    concurrent: await appendRateOnFreshFile(mode, CONCURRENT_APPENDS, CONCURRENCY),
    sequential: await appendRateOnFreshFile(mode, SEQUENTIAL_APPENDS, 1),
  };
}

interface Rates {
  concurrent: number;
  sequential: number;
}

export const storeSync: BenchGroup = {
  name: 'store',
  figures: ['store.sync_full_vs_normal'],
  async run(figures) {
    log(
      `store: deliveries.accept of 1 KB deliveries through the bot's store (better-sqlite3, WAL, group commit), ` +
        `synchronous=FULL vs NORMAL; ${ROUNDS} rounds; per round and mode ${CONCURRENT_APPENDS} appends ` +
        `${CONCURRENCY} in flight and ${SEQUENTIAL_APPENDS} one at a time, each on a fresh SQLite file in ${tmpdir()}`,
    );
    const rounds: Array<Record<Mode, Rates>> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const rates: Partial<Record<Mode, Rates>> = {};
      for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) rates[mode] = await measure(mode);
      const complete = rates as Record<Mode, Rates>;
      rounds.push(complete);
      const shown = MODES.map(
        (mode) =>
          `${mode} ${formatNumber(complete[mode].concurrent)}/s (${formatNumber(complete[mode].sequential)}/s one at a time)`,
      );
      log(`  round ${round + 1}: ${shown.join(', ')}`);
    }
    for (const mode of MODES) {
      const concurrent = rounds.map((rates) => rates[mode].concurrent);
      const sequential = rounds.map((rates) => rates[mode].sequential);
      log(
        `  ${mode.padEnd(10)} ${CONCURRENCY} in flight: ${formatList(concurrent)} -> median ${formatNumber(median(concurrent))} appends/s`,
      );
      log(
        `  ${mode.padEnd(10)} one at a time: ${formatList(sequential)} -> median ${formatNumber(median(sequential))} appends/s`,
      );
    }
    const ratio = (a: Mode, b: Mode, kind: keyof Rates) => rounds.map((rates) => rates[a][kind] / rates[b][kind]);
    const show = (label: string, values: number[]) =>
      log(`  ${label}: ${formatList(values)} -> median ${formatNumber(median(values))}`);
    const ratios = ratio('FULL', 'NORMAL', 'concurrent');
    show(`FULL/NORMAL, ${CONCURRENCY} in flight`, ratios);
    show('FULL/NORMAL, one at a time', ratio('FULL', 'NORMAL', 'sequential'));
    figures.add('store.sync_full_vs_normal', median(ratios), 'x');
  },
};
