import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { Keyv } from 'keyv';
import { SQLITE_PRAGMAS } from '../src/store/keyv-factory.js';
import { Outbox, OutboxEntrySchema } from '../src/store/outbox.js';
import { TypedCollection } from '../src/store/typed-collection.js';
import type { BenchGroup } from './group.js';
import { BENCH_GUILD_ID, makeDeliveryBody, makeDeliveryId, makeRunTag } from './lib/delivery.js';
import { GroupCommitSqlite } from './lib/group-commit-sqlite.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * store.sync_full_vs_normal: outbox appends per second with `synchronous=FULL` (what SQLITE_PRAGMAS sets)
 * divided by the same with `synchronous=NORMAL`. Same code path as the intake (Outbox.append -> TypedCollection
 * -> Keyv -> @keyv/sqlite), same adapter options and PRAGMAs as src/store/keyv-factory.ts except the one
 * switched: the factory has no switch, so the adapter is built here the way the factory builds it.
 * A third variant, FULL with group commit, runs the prototype in lib/group-commit-sqlite.ts (not the bot's code)
 * to show what the change proposed for the factory would give; it is printed, not a figure.
 */
const ROUNDS = roundCount(5);
const CONCURRENCY = 10;
const WARMUP_APPENDS = 100;
const CONCURRENT_APPENDS = 1_000;
const SEQUENTIAL_APPENDS = 300;

type Mode = 'FULL' | 'NORMAL' | 'FULL+group';
const MODES: readonly Mode[] = ['FULL', 'NORMAL', 'FULL+group'];
const SYNCHRONOUS_VALUES: Record<Mode, number> = { NORMAL: 1, FULL: 2, 'FULL+group': 2 };

async function openOutbox(file: string, mode: Mode): Promise<{ outbox: Outbox; close: () => Promise<void> }> {
  const options = { uri: `sqlite://${file}`, table: 'outbox', busyTimeout: 5000, iterationLimit: 500 };
  const adapter = mode === 'FULL+group' ? new GroupCommitSqlite(options) : new KeyvSqlite(options);
  const synchronous = mode === 'NORMAL' ? 'NORMAL' : 'FULL';
  for (const pragma of SQLITE_PRAGMAS) await adapter.query(pragma.replace(/^PRAGMA synchronous=\w+$/, `PRAGMA synchronous=${synchronous}`));
  const [sync] = (await adapter.query('PRAGMA synchronous')) as Array<{ synchronous: number }>;
  const [journal] = (await adapter.query('PRAGMA journal_mode')) as Array<{ journal_mode: string }>;
  if (sync?.synchronous !== SYNCHRONOUS_VALUES[mode] || journal?.journal_mode !== 'wal') {
    throw new Error(`PRAGMAs not in effect: synchronous=${String(sync?.synchronous)} journal_mode=${String(journal?.journal_mode)}`);
  }
  const outbox = await Outbox.load(new TypedCollection(new Keyv({ store: adapter, namespace: 'outbox' }), OutboxEntrySchema, 'outbox'));
  return { outbox, close: () => adapter.disconnect() };
}

/** Appends per second for `count` appends with `concurrency` kept in flight (as concurrent requests would). */
async function appendRate(outbox: Outbox, count: number, concurrency: number): Promise<number> {
  const tag = makeRunTag();
  let n = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (n < count) {
        const deliveryId = makeDeliveryId(tag, n++);
        await outbox.append({
          hookId: 'hook_bench',
          guildId: BENCH_GUILD_ID,
          deliveryId,
          event: 'case.created',
          render: 'event',
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
  const { outbox, close } = await openOutbox(join(dir, 'outbox.sqlite'), mode);
  try {
    await appendRate(outbox, WARMUP_APPENDS, concurrency);
    return await appendRate(outbox, count, concurrency);
  } finally {
    await close();
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
      `store: outbox.append of 1 KB deliveries, WAL, ${ROUNDS} rounds; per round and mode ${CONCURRENT_APPENDS} appends ` +
        `${CONCURRENCY} in flight and ${SEQUENTIAL_APPENDS} one at a time, each on a fresh SQLite file in ${tmpdir()}`,
    );
    const rounds: Array<Record<Mode, Rates>> = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const rates: Partial<Record<Mode, Rates>> = {};
      for (const mode of round % 2 === 0 ? MODES : [...MODES].reverse()) rates[mode] = await measure(mode);
      const complete = rates as Record<Mode, Rates>;
      rounds.push(complete);
      const shown = MODES.map((mode) => `${mode} ${formatNumber(complete[mode].concurrent)}/s (${formatNumber(complete[mode].sequential)}/s one at a time)`);
      log(`  round ${round + 1}: ${shown.join(', ')}`);
    }
    for (const mode of MODES) {
      const concurrent = rounds.map((rates) => rates[mode].concurrent);
      const sequential = rounds.map((rates) => rates[mode].sequential);
      log(`  ${mode.padEnd(10)} ${CONCURRENCY} in flight: ${formatList(concurrent)} -> median ${formatNumber(median(concurrent))} appends/s`);
      log(`  ${mode.padEnd(10)} one at a time: ${formatList(sequential)} -> median ${formatNumber(median(sequential))} appends/s`);
    }
    const ratios = rounds.map((rates) => rates.FULL.concurrent / rates.NORMAL.concurrent);
    const sequentialRatios = rounds.map((rates) => rates.FULL.sequential / rates.NORMAL.sequential);
    const groupRatios = rounds.map((rates) => rates['FULL+group'].concurrent / rates.NORMAL.concurrent);
    const groupSequentialRatios = rounds.map((rates) => rates['FULL+group'].sequential / rates.NORMAL.sequential);
    log(`  FULL/NORMAL, ${CONCURRENCY} in flight: ${formatList(ratios)} -> median ${formatNumber(median(ratios))}`);
    log(`  FULL/NORMAL, one at a time: ${formatList(sequentialRatios)} -> median ${formatNumber(median(sequentialRatios))}`);
    log(`  FULL+group (prototype)/NORMAL, ${CONCURRENCY} in flight: ${formatList(groupRatios)} -> median ${formatNumber(median(groupRatios))}`);
    log(`  FULL+group (prototype)/NORMAL, one at a time: ${formatList(groupSequentialRatios)} -> median ${formatNumber(median(groupSequentialRatios))}`);
    figures.add('store.sync_full_vs_normal', median(ratios), 'x');
  },
};
