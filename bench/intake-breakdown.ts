import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { STORE_MODULES } from '../src/features/index.js';
import { openStore } from '../src/store/open-store.js';
import { classifyDelivery, EnvelopeSchema } from '../src/upstream/schemas.js';
import { verifyDelivery } from '../src/upstream/signature.js';
import {
  BENCH_GUILD_ID,
  BENCH_SECRET,
  deliveryHeaders,
  makeDeliveryBody,
  makeDeliveryId,
  makeRunTag,
} from './lib/delivery.js';
import { log } from './lib/report.js';
import { formatList, formatNumber, median, percentile, roundCount } from './lib/stats.js';
import { mainThreadCpuMs, rounds, timeAwaited, timeConcurrent, timeSync } from './lib/timing.js';

/**
 * Where an intake delivery's time goes, step by step, measured in this process with the same functions the
 * route calls (src/intake/webhook-route.ts) and the same store (SQLite file, SQLITE_PRAGMAS).
 */
const ROUNDS = roundCount(5);
const CPU_ITERATIONS = 10_000;
const STORE_SEQUENTIAL = 300;
const STORE_CONCURRENT = 3_000;
const CONCURRENCY = 10;

function line(label: string, result: { values: number[]; median: number }, unit = 'µs'): void {
  log(
    `  ${label.padEnd(54)} ${formatNumber(result.median).padStart(7)} ${unit}   (rounds: ${formatList(result.values)})`,
  );
}

export async function measureIntakeBreakdown(): Promise<void> {
  log(
    `intake breakdown (in-process, median of ${ROUNDS} rounds, per delivery of ${Buffer.byteLength(makeDeliveryBody(makeDeliveryId('00000000', 0)))} bytes):`,
  );
  const body = Buffer.from(makeDeliveryBody(makeDeliveryId(makeRunTag(), 1)));
  const headers = deliveryHeaders(BENCH_SECRET, body.toString('utf8'));
  const text = body.toString('utf8');
  const json: unknown = JSON.parse(text);
  const envelope = EnvelopeSchema.parse(json);

  line(
    'verifyDelivery (HMAC-SHA256 of 1 KB + checks)',
    await rounds(ROUNDS, () =>
      timeSync(() => {
        const verdict = verifyDelivery({
          secret: BENCH_SECRET,
          rawBody: body,
          signatureHeader: headers['x-service-signature'],
          timestampHeader: headers['x-service-timestamp'],
          now: Date.now(),
        });
        if (!verdict.ok) throw new Error(`bench delivery refused: ${verdict.reason}`);
      }, CPU_ITERATIONS),
    ),
  );
  line(
    'Buffer -> string + JSON.parse',
    await rounds(ROUNDS, () => timeSync(() => JSON.parse(body.toString('utf8')), CPU_ITERATIONS)),
  );
  line(
    'EnvelopeSchema.safeParse (zod)',
    await rounds(ROUNDS, () => timeSync(() => EnvelopeSchema.safeParse(json), CPU_ITERATIONS)),
  );
  line(
    'classifyDelivery (zod, case.created schema)',
    await rounds(ROUNDS, () =>
      timeSync(() => {
        if (classifyDelivery(envelope).kind !== 'event') throw new Error('bench delivery does not match its schema');
      }, CPU_ITERATIONS),
    ),
  );

  const dir = mkdtempSync(join(tmpdir(), 'bridge-bench-breakdown-'));
  const store = await openStore(`sqlite://${dir}/breakdown.sqlite`, STORE_MODULES);
  try {
    const tag = makeRunTag();
    let n = 0;
    const nextDelivery = () => {
      const deliveryId = makeDeliveryId(tag, n++);
      return {
        hookId: 'hook_bench',
        guildId: BENCH_GUILD_ID,
        deliveryId,
        event: 'case.created',
        rawBody: makeDeliveryBody(deliveryId),
        receivedAt: Date.now(),
      };
    };
    const accept = () => store.deliveries.accept(nextDelivery());
    // Each accept timed on its own too: the tail of the fsync is what the answer-time percentiles inherit.
    const appendMs: number[] = [];
    const append = async () => {
      const delivery = nextDelivery();
      const start = performance.now();
      await store.deliveries.accept(delivery);
      appendMs.push(performance.now() - start);
    };
    line(
      'deliveries.accept (route, unique INSERT, activity, commit + fsync; one at a time)',
      await rounds(ROUNDS, () => timeAwaited(append, STORE_SEQUENTIAL)),
    );
    log(
      `    per append over all ${appendMs.length}: p50 ${formatNumber(percentile(appendMs, 50))} ms, ` +
        `p99 ${formatNumber(percentile(appendMs, 99))} ms, max ${formatNumber(Math.max(...appendMs))} ms`,
    );
    // Wall time, event-loop busy time and main-thread CPU of the same loop: busy but not on a CPU is blocked.
    const wall: number[] = [];
    const busy: number[] = [];
    const onCpu: number[] = [];
    const processCpu: number[] = [];
    await timeConcurrent(accept, STORE_CONCURRENT, CONCURRENCY);
    for (let round = 0; round < ROUNDS; round += 1) {
      const elu = performance.eventLoopUtilization();
      const cpuBefore = mainThreadCpuMs();
      const usageBefore = process.cpuUsage();
      wall.push(await timeConcurrent(accept, STORE_CONCURRENT, CONCURRENCY));
      const used = process.cpuUsage(usageBefore);
      processCpu.push((used.user + used.system) / STORE_CONCURRENT);
      const cpuAfter = mainThreadCpuMs();
      busy.push((performance.eventLoopUtilization(elu).active * 1000) / STORE_CONCURRENT);
      if (cpuBefore !== undefined && cpuAfter !== undefined)
        onCpu.push(((cpuAfter - cpuBefore) * 1000) / STORE_CONCURRENT);
    }
    line(`deliveries.accept, ${CONCURRENCY} in flight (wall per delivery)`, { values: wall, median: median(wall) });
    line('  main thread busy (event-loop utilization)', { values: busy, median: median(busy) });
    line('  CPU of the whole process (user + system, every thread)', {
      values: processCpu,
      median: median(processCpu),
    });
    if (onCpu.length > 0) {
      const blocked = busy.map((value, i) => value - (onCpu[i] ?? Number.NaN));
      line('  main thread on a CPU (/proc, 10 ms ticks)', { values: onCpu, median: median(onCpu) });
      line('  main thread blocked (busy - on CPU)', { values: blocked, median: median(blocked) });
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
