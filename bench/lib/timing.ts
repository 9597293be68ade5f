import { readFileSync } from 'node:fs';

import { median } from './stats.js';

/** Per-operation costs measured in this process with performance.now() loops. */

/** µs per call of `op`, over `iterations` calls in a plain loop. */
export function timeSync(op: (i: number) => unknown, iterations: number): number {
  const start = performance.now();
  for (let i = 0; i < iterations; i += 1) op(i);
  return ((performance.now() - start) * 1000) / iterations;
}

/** µs per call of `op`, each call awaited before the next (the shape a request handler calls it in). */
export async function timeAwaited(op: (i: number) => unknown, iterations: number): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < iterations; i += 1) await op(i);
  return ((performance.now() - start) * 1000) / iterations;
}

/** µs of wall time per call with `concurrency` calls kept in flight, `iterations` calls in all. */
export async function timeConcurrent(
  op: (i: number) => Promise<unknown>,
  iterations: number,
  concurrency: number,
): Promise<number> {
  let next = 0;
  const start = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < iterations) await op(next++);
    }),
  );
  return ((performance.now() - start) * 1000) / iterations;
}

/** Runs `round` `rounds` times after one warm-up round; the per-round values and their median. */
export async function rounds(
  count: number,
  round: () => number | Promise<number>,
): Promise<{ values: number[]; median: number }> {
  await round();
  const values: number[] = [];
  for (let i = 0; i < count; i += 1) values.push(await round());
  return { values, median: median(values) };
}

/**
 * CPU time the main thread itself has used so far, ms (Linux: /proc/self/task/<pid>/stat, in 10 ms ticks);
 * undefined elsewhere. Set against event-loop busy time it shows how long the loop thread was blocked
 * (waiting on a lock, say) rather than computing.
 */
export function mainThreadCpuMs(): number | undefined {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Now, in ms since the Unix epoch with performance.now()'s resolution: comparable between processes on one
 * machine (each process's performance.now() counts from its own start).
 */
export function wallClockMs(): number {
  return performance.timeOrigin + performance.now();
}
