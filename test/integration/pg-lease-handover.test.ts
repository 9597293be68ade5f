import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';

import { PARTITIONS } from '../../src/store/coordination.js';
import { PostgresLeases } from '../../src/store/postgres/pg-leases.js';
import { PostgresSignals } from '../../src/store/postgres/pg-signals.js';
import { captureLogs } from '../helpers/capture-logs.js';
import { createMigratedDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Longer than any test here: only what the leases hear (the member watch, NOTIFY) can move a partition. */
const NO_TIMER_MS = 600_000;

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`not within ${timeoutMs} ms: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return Date.now() - started;
}

/** A database of its own with the bot's schema, dropped after the test. */
async function leaseDatabase(): Promise<string> {
  const database = await createMigratedDatabase();
  cleanups.push(() => database.drop());
  return database.url;
}

/** Leases in this process, hearing the others' NOTIFYs; `onShare` is told the share it holds. */
async function leasesHere(
  url: string,
  name: string,
  timing: { rebalanceMs: number; keepTakenMs: number },
  onShare: (share: number) => void = () => undefined,
) {
  const logger = captureLogs().logger;
  const signals = new PostgresSignals({ connectionString: url, application_name: `${name}-signals` }, logger);
  await signals.start();
  const leases = new PostgresLeases(
    { connectionString: url, application_name: name },
    { logger, wantsGateway: false, idleTimeoutMs: 5_000, onShare, ...timing },
    signals,
  );
  cleanups.push(async () => {
    await leases.stop();
    await signals.close();
  });
  return leases;
}

/** A lease holder in a process of its own (test/helpers/lease-holder-process.ts); `held` follows what it says. */
function leaseProcess(url: string, name: string) {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/lease-holder-process.ts'], {
    env: { PATH: process.env.PATH ?? '', LEASE_URL: url, LEASE_NAME: name, LEASE_REBALANCE_MS: String(NO_TIMER_MS) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  cleanups.push(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGKILL');
    await once(child, 'exit');
  });
  const state = { held: -1, child };
  child.stdout?.on('data', (chunk: Buffer) => {
    const last = /held (\d+)\s*$/.exec(chunk.toString('utf8'));
    if (last) state.held = Number(last[1]);
  });
  return state;
}

describe.skipIf(!POSTGRES_URL)('feed partitions handed over as soon as PostgreSQL tells of it', () => {
  it('takes a SIGKILLed process’s partitions at once, with no rebalance timer running, and splits by NOTIFY', async () => {
    const url = await leaseDatabase();
    const holder = leaseProcess(url, 'lease-holder');
    await until(() => holder.held === PARTITIONS, 15_000, 'the process in a process of its own holds everything');

    // It joins: the holder hears of it (NOTIFY), gives back half and says so; neither runs its timer.
    const here = await leasesHere(url, 'lease-here', { rebalanceMs: NO_TIMER_MS, keepTakenMs: 0 });
    await here.start({ gained: () => undefined, losing: () => Promise.resolve() });
    await until(
      () => holder.held === PARTITIONS / 2 && here.partitions.length === PARTITIONS / 2,
      5_000,
      'an even split through NOTIFY',
    );

    // The holder dies without a goodbye: its connections close, the server frees its member lock, and the watch
    // waiting on that lock here is granted it.
    const killedAt = Date.now();
    holder.child.kill('SIGKILL');
    await until(() => here.partitions.length === PARTITIONS, 5_000, 'the dead one’s partitions taken');
    expect(Date.now() - killedAt).toBeLessThan(1_000);
  }, 30_000);

  it('keeps the partitions it took over for a while before giving any to a process that joins, shares at once what it took alone at start, and never counts a partition twice in the shares', async () => {
    const url = await leaseDatabase();
    const keepTakenMs = 1_500;
    // Each process's share as it is told it, and their sum each time one changes.
    const latest = { a: 0, b: 0, c: 0 };
    const sums: number[] = [];
    const note = (name: 'a' | 'b' | 'c') => (share: number) => {
      latest[name] = share;
      sums.push(latest.a + latest.b + latest.c);
    };
    const idle = { gained: () => undefined, losing: () => Promise.resolve() };
    const a = await leasesHere(url, 'lease-a', { rebalanceMs: 100, keepTakenMs }, note('a'));
    await a.start(idle);
    expect(a.partitions).toHaveLength(PARTITIONS);

    // Taken alone at start, not over from anyone: half goes to the one that joins at once.
    const b = await leasesHere(url, 'lease-b', { rebalanceMs: 100, keepTakenMs }, note('b'));
    const bJoinedAt = Date.now();
    await b.start(idle);
    await until(() => b.partitions.length === PARTITIONS / 2, 5_000, 'half handed to the one that joined');
    expect(Date.now() - bJoinedAt).toBeLessThan(keepTakenMs);

    // b leaves: a takes its half over, and keeps it for keepTakenMs before c, joining at once, gets any.
    await b.stop();
    await until(() => a.partitions.length === PARTITIONS, 5_000, 'the half b left taken over');
    const tookOverAt = Date.now();
    const c = await leasesHere(url, 'lease-c', { rebalanceMs: 100, keepTakenMs }, note('c'));
    await c.start(idle);
    await until(() => c.partitions.length === PARTITIONS / 2, 5_000, 'half handed to the one that joined after');
    expect(Date.now() - tookOverAt).toBeGreaterThanOrEqual(keepTakenMs);
    expect(a.partitions).toHaveLength(PARTITIONS / 2);
    expect(Math.max(...sums)).toBeLessThanOrEqual(1);
    expect(latest).toEqual({ a: 0.5, b: 0, c: 0.5 });
  }, 30_000);
});
