import { readFileSync } from 'node:fs';

import type { BotProcess } from '../../test/e2e/fleet.js';

/** What a feed process's /healthz says of Discord: its state, and its gateway shards' (absent when it holds none). */
export interface FeedHealth {
  discord: string;
  shards: Record<string, string>;
}

/** A process of the fleet still running (neither exited nor killed). */
export function isAlive(bot: BotProcess): boolean {
  return bot.child.exitCode === null && bot.child.signalCode === null;
}

/** GET /healthz of a bot process (200 or 503: both carry the report); undefined when it does not answer in time. */
export async function readHealth(bot: BotProcess, timeoutMs = 2_000): Promise<FeedHealth | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${bot.port}/healthz`, { signal: AbortSignal.timeout(timeoutMs) });
    const report = (await response.json()) as { discord?: unknown; discord_shards?: unknown };
    return {
      discord: String(report.discord),
      shards: (report.discord_shards ?? {}) as Record<string, string>,
    };
  } catch {
    return undefined;
  }
}

/**
 * Who has each gateway shard open now, by the live processes' /healthz: shard id → the processes that say they
 * hold it, with its state there. A process that did not answer counts as holding nothing.
 */
export async function readShardHolders(
  bots: readonly BotProcess[],
): Promise<Map<number, Array<{ bot: BotProcess; state: string }>>> {
  const healths = await Promise.all(bots.filter(isAlive).map(async (bot) => ({ bot, health: await readHealth(bot) })));
  const holders = new Map<number, Array<{ bot: BotProcess; state: string }>>();
  for (const { bot, health } of healths) {
    for (const [shard, state] of Object.entries(health?.shards ?? {})) {
      const list = holders.get(Number(shard)) ?? [];
      list.push({ bot, state });
      holders.set(Number(shard), list);
    }
  }
  return holders;
}

/** Whether each of `count` shards is held by exactly one process, and ready there. */
export function eachShardReadyOnce(
  holders: ReadonlyMap<number, ReadonlyArray<{ state: string }>>,
  count: number,
): boolean {
  for (let shard = 0; shard < count; shard += 1) {
    const held = holders.get(shard) ?? [];
    if (held.length !== 1 || held[0]?.state !== 'ready') return false;
  }
  return holders.size === count;
}

/** A process's resident set in bytes, as the kernel counts it (/proc/<pid>/status VmRSS). */
export function rssOf(bot: BotProcess): number {
  const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${bot.child.pid ?? 0}/status`, 'utf8'));
  return Number(line?.[1] ?? 0) * 1024;
}

/**
 * The V8 heap used by a process, in bytes, from its /metrics (prom-client's `nodejs_heap_size_used_bytes`; the
 * process serves them when started with METRICS_PORT); undefined when it serves none or does not answer.
 */
export async function heapUsedOf(bot: BotProcess): Promise<number | undefined> {
  const url = bot.lines.find((line) => line['msg'] === 'metrics listening')?.['url'];
  if (typeof url !== 'string') return undefined;
  try {
    const body = await (await fetch(url, { signal: AbortSignal.timeout(5_000) })).text();
    const value = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(body)?.[1];
    return value === undefined ? undefined : Number(value);
  } catch {
    return undefined;
  }
}
