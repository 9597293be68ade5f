import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';

import { generateEventStream } from '../fakes/service/event-stream.js';
import { RUNTIME_TIMERS } from '../src/base/timers.js';
import { ConductGuard } from '../src/features/conduct/conduct-guard.js';
import { dueOf } from '../src/features/conduct/feature.js';
import { conductModule } from '../src/features/conduct/store/conduct-module.js';
import { STORE_MODULES } from '../src/features/index.js';
import { staffMomentsOf } from '../src/features/record/index.js';
import { RecordWriter } from '../src/features/record/record-writer.js';
import { recordModule } from '../src/features/record/store/record-module.js';
import { openStore } from '../src/store/open-store.js';
import type { Store } from '../src/store/store.js';
import { log, type Figures } from './lib/report.js';
import { formatList, formatNumber, median, roundCount } from './lib/stats.js';

/**
 * oversight.guard_cost_ratio: what the conduct guard adds to the record writer's time, at 1,000 deliveries a
 * second. Each round accepts a second's worth of deliveries (1,000, the fake service's event stream: cases, shifts,
 * sessions and modcalls over 100 guilds, every guild watched by the guard) into the bot's SQLite store, then times
 * the record's writer (`RecordWriter.write`, as its timer runs it) merging them: once without the guard's hook and
 * once with it (the cases and shifts noted due in the merges' transaction), in turn, the order swapping each round.
 * The figure is the median of the rounds' (with − without) / without; limit 0.05. The guard's own judging of what
 * was noted runs apart from the writer (its own job, after it): its time per second's deliveries is logged beside.
 */
const PER_SECOND = 1_000;
const GUILDS = 100;
const LIMIT = 0.05;
const ROUNDS = 15;

let sent = 0;
let seed = 1;
/** The next `count` deliveries of the event stream, spread over the guilds. */
async function acceptSecond(store: Store, count: number): Promise<void> {
  const events = [];
  while (events.length < count) events.push(...generateEventStream({ seed: (seed += 1) }));
  for (const event of events.slice(0, count)) {
    sent += 1;
    const guildId = `9${String(sent % GUILDS).padStart(17, '0')}`;
    await store.deliveries.accept({
      hookId: `hook-${guildId}`,
      guildId,
      deliveryId: `d${sent}`,
      event: event.event,
      server: event.server,
      rawBody: JSON.stringify(event),
      receivedAt: Date.now(),
    });
  }
}

/** The writer's time to merge what waits (ms). */
async function timeWriter(writer: RecordWriter): Promise<number> {
  const started = performance.now();
  while ((await writer.write()) > 0) {
    // A tick merges at most 25 slices of 200: the next one takes the rest, as the timer would a second later.
  }
  return performance.now() - started;
}

export async function measureGuardCost(figures: Figures): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-oversight-'));
  const store = await openStore(`sqlite://${dir}/store.sqlite`, STORE_MODULES);
  try {
    const logger = pino({ level: 'warn' });
    const conduct = store.of(conductModule);
    for (let guild = 0; guild < GUILDS; guild += 1) {
      await conduct.setChannel(`9${String(guild).padStart(17, '0')}`, '300000000000000001');
    }
    const community = store.of(recordModule);
    const writerDeps = { community, timers: RUNTIME_TIMERS, logger };
    const plain = new RecordWriter(writerDeps);
    const guarded = new RecordWriter({
      ...writerDeps,
      withMerges: (merged) => conduct.noteDueWrites(dueOf(merged), Date.now()),
    });
    const guard = new ConductGuard({
      conduct,
      moments: staffMomentsOf(store),
      clock: Date.now,
      timers: RUNTIME_TIMERS,
      logger,
    });
    // Warm-up: the statements prepared, the record's pages in the cache.
    for (const writer of [plain, guarded]) {
      await acceptSecond(store, PER_SECOND);
      await timeWriter(writer);
    }
    await guard.judgeDue();

    const rounds = roundCount(ROUNDS);
    const ratios: number[] = [];
    const withoutMs: number[] = [];
    const withMs: number[] = [];
    const judgeMs: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const times = new Map<RecordWriter, number>();
      for (const writer of round % 2 === 0 ? [plain, guarded] : [guarded, plain]) {
        await acceptSecond(store, PER_SECOND);
        times.set(writer, await timeWriter(writer));
        if (writer === guarded) {
          const started = performance.now();
          await guard.judgeDue();
          judgeMs.push(performance.now() - started);
        }
      }
      const without = times.get(plain) ?? 0;
      const withHook = times.get(guarded) ?? 0;
      withoutMs.push(without);
      withMs.push(withHook);
      ratios.push((withHook - without) / without);
    }
    log(`record writer per ${PER_SECOND} deliveries, without the guard's hook (ms): ${formatList(withoutMs)}`);
    log(`record writer per ${PER_SECOND} deliveries, with it (ms): ${formatList(withMs)}`);
    log(`the guard's judging of them, apart from the writer (ms): ${formatList(judgeMs)}`);
    log(`added share per round: ${formatList(ratios)}`);
    const ratio = median(ratios);
    log(`oversight.guard_cost_ratio ${formatNumber(ratio)} (limit ${LIMIT})`);
    figures.add('oversight.guard_cost_ratio', ratio, 'x');
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
