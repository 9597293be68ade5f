import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KeyvSqlite } from '@keyv/sqlite';
import { Keyv } from 'keyv';

import { GroupCommitSqlite } from '../src/store/group-commit-sqlite.js';
import { createKeyvFactory, SQLITE_PRAGMAS } from '../src/store/keyv-factory.js';
import { Outbox, OutboxEntrySchema } from '../src/store/outbox.js';
import { TypedCollection } from '../src/store/typed-collection.js';
import type { BenchGroup } from './group.js';
import { BENCH_GUILD_ID, makeDeliveryBody, makeDeliveryId, makeRunTag } from './lib/delivery.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * store.sync_full_vs_normal: outbox appends per second with `synchronous=FULL` divided by the same with
 * `synchronous=NORMAL`, both through the bot's own store code. Same path as the intake (Outbox.append ->
 * TypedCollection -> Keyv -> GroupCommitSqlite).
 * - FULL: the keyv `createKeyvFactory('sqlite://…').open('outbox')` returns, untouched (GroupCommitSqlite,
 *   SQLITE_PRAGMAS, throwOnErrors), exactly what the bot runs.
 * - NORMAL: the same keyv from the same factory, then `PRAGMA synchronous=NORMAL` on its adapter's connection
 *   (the factory opens one connection per namespace and the PRAGMA is per connection, so nothing else changes).
 * - `plain FULL`, printed for reference only (not a figure): @keyv/sqlite's own KeyvSqlite, one commit (one
 *   fsync) per write, with the factory's options and SQLITE_PRAGMAS. The factory cannot build it, so it is
 *   built here as the factory builds its adapter, with the class swapped; FULL / plain FULL is what group
 *   commit gains.
 * Each variant checks the PRAGMAs in effect and the adapter class before it is measured.
 */
const ROUNDS = roundCount(5);
const CONCURRENCY = 10;
const WARMUP_APPENDS = 100;
const CONCURRENT_APPENDS = 1_000;
const SEQUENTIAL_APPENDS = 300;

type Mode = 'FULL' | 'NORMAL' | 'plain FULL';
const MODES: readonly Mode[] = ['FULL', 'NORMAL', 'plain FULL'];
const SYNCHRONOUS_VALUES: Record<Mode, number> = { FULL: 2, NORMAL: 1, 'plain FULL': 2 };

/** The keyv of `mode` on `file` and how to close it. */
async function openKeyv(file: string, mode: Mode): Promise<{ keyv: Keyv; close: () => Promise<void> }> {
  if (mode === 'plain FULL') {
    // Mirrors createSqliteFactory's open('outbox') (src/store/keyv-factory.ts) with KeyvSqlite for GroupCommitSqlite.
    const adapter = new KeyvSqlite({
      uri: `sqlite://${file}`,
      table: 'outbox',
      busyTimeout: 5000,
      iterationLimit: 500,
    });
    for (const pragma of SQLITE_PRAGMAS) await adapter.query(pragma);
    return {
      keyv: new Keyv({ store: adapter, namespace: 'outbox', throwOnErrors: true }),
      close: () => adapter.disconnect(),
    };
  }
  const factory = createKeyvFactory(`sqlite://${file}`);
  try {
    const keyv = await factory.open('outbox');
    if (!(keyv.store instanceof GroupCommitSqlite))
      throw new Error('the factory no longer builds a GroupCommitSqlite; update bench/store-sync.ts');
    if (mode === 'NORMAL') await keyv.store.query('PRAGMA synchronous=NORMAL');
    return { keyv, close: () => factory.close() };
  } catch (error) {
    await factory.close();
    throw error;
  }
}

async function openOutbox(file: string, mode: Mode): Promise<{ outbox: Outbox; close: () => Promise<void> }> {
  const { keyv, close } = await openKeyv(file, mode);
  try {
    const adapter = keyv.store as KeyvSqlite;
    const [sync] = (await adapter.query('PRAGMA synchronous')) as Array<{ synchronous: number }>;
    const [journal] = (await adapter.query('PRAGMA journal_mode')) as Array<{ journal_mode: string }>;
    if (sync?.synchronous !== SYNCHRONOUS_VALUES[mode] || journal?.journal_mode !== 'wal') {
      throw new Error(
        `${mode}: PRAGMAs not in effect: synchronous=${String(sync?.synchronous)} journal_mode=${String(journal?.journal_mode)}`,
      );
    }
    return { outbox: await Outbox.load(new TypedCollection(keyv, OutboxEntrySchema, 'outbox')), close };
  } catch (error) {
    await close();
    throw error;
  }
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
      `store: outbox.append of 1 KB deliveries through the bot's store (createKeyvFactory: GroupCommitSqlite, WAL), ` +
        `synchronous=FULL vs NORMAL, plain KeyvSqlite FULL for reference; ${ROUNDS} rounds; per round and mode ${CONCURRENT_APPENDS} appends ` +
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
    log('  for reference (not a figure), @keyv/sqlite alone, one commit per write:');
    show(`plain FULL/NORMAL, ${CONCURRENCY} in flight`, ratio('plain FULL', 'NORMAL', 'concurrent'));
    show('plain FULL/NORMAL, one at a time', ratio('plain FULL', 'NORMAL', 'sequential'));
    show(
      `FULL/plain FULL (what group commit gains), ${CONCURRENCY} in flight`,
      ratio('FULL', 'plain FULL', 'concurrent'),
    );
    show('FULL/plain FULL (what group commit gains), one at a time', ratio('FULL', 'plain FULL', 'sequential'));
    figures.add('store.sync_full_vs_normal', median(ratios), 'x');
  },
};
