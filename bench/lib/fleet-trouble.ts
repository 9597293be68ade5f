import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import type { BotProcess, Fleet } from '../../test/e2e/fleet.js';

/** pino's level of warnings. */
const WARN = 40;

/**
 * What a fleet's processes said when something went wrong: each one's last warnings and errors (JSON log lines,
 * counted per message) and the end of its stderr, so a failed measurement says why.
 */
export function fleetTrouble(fleet: Fleet, max = 5): string[] {
  const lines: string[] = [];
  for (const bot of fleet.processes.values()) {
    const counts = new Map<string, number>();
    for (const line of bot.lines) {
      if (typeof line['level'] !== 'number' || line['level'] < WARN) continue;
      const err = line['err'] as { message?: string } | undefined;
      const key = `${String(line['msg'])}${err?.message === undefined ? '' : `: ${err.message}`}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const worst = [...counts].sort((a, b) => b[1] - a[1]).slice(0, max);
    for (const [message, count] of worst) lines.push(`${bot.name} (${bot.role}): ${count} x ${message}`);
    const stderr = bot.stderr.trim();
    if (stderr) lines.push(`${bot.name} stderr: ${stderr.slice(-500)}`);
  }
  return lines;
}

/**
 * BENCH_FLEET_LOGS=<folder>: every bot process's log lines (JSON, one a line) and stderr are written there, a
 * file per process and round (`<round>-<name>-<pid>.log`), to read what a measurement's processes did.
 */
export function saveFleetLogs(bots: Iterable<BotProcess>, round: number): void {
  const folder = process.env.BENCH_FLEET_LOGS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  for (const bot of bots) {
    const lines = bot.lines.map((line) => JSON.stringify(line)).join('\n');
    const file = join(folder, `${round + 1}-${bot.name}-${bot.child.pid ?? 'none'}.log`);
    writeFileSync(file, `${lines}\n${bot.stderr ? `stderr:\n${bot.stderr}\n` : ''}`);
  }
}
