import type pg from 'pg';

import type { LeaseSession } from './lease-session.js';

/**
 * Advisory lock classes (the two-int form: class, object): the partitions and the gateway a feed process holds,
 * on its lease session (lease-session.ts), so they go when the session does.
 */
export const PARTITION_CLASS = 0x42524450; // 'BRDP'
const GATEWAY_CLASS = 0x42524447; // 'BRDG'
/** The gateway shards a feed process opens (pg-shard-share.ts), held as the partitions are. */
export const SHARD_CLASS = 0x42524453; // 'BRDS'

/**
 * Locks up to `count` of `candidates` that no session holds, in one statement (in the candidates' order); the
 * LIMIT ends the scan once enough are locked, so none is locked beyond it.
 */
export async function lockFree(
  session: LeaseSession,
  client: pg.Client,
  candidates: readonly number[],
  count: number,
  lockClass = PARTITION_CLASS,
): Promise<number[]> {
  const { rows } = await session.query<{ partition: number }>(
    client,
    `SELECT partition FROM unnest($2::int[]) AS partition WHERE pg_try_advisory_lock($1, partition) LIMIT $3`,
    [lockClass, candidates, count],
  );
  return rows.map((row) => row.partition);
}

/** Lets these partitions go, in one statement. */
export async function unlock(
  session: LeaseSession,
  client: pg.Client,
  partitions: readonly number[],
  lockClass = PARTITION_CLASS,
): Promise<void> {
  await session.query(client, 'SELECT pg_advisory_unlock($1, partition) FROM unnest($2::int[]) AS partition', [
    lockClass,
    partitions,
  ]);
}

/** Whether this session holds the gateway now (taking it if it is free). */
export async function tryGateway(session: LeaseSession, client: pg.Client): Promise<boolean> {
  const { rows } = await session.query<{ locked: boolean }>(client, 'SELECT pg_try_advisory_lock($1, 0) AS locked', [
    GATEWAY_CLASS,
  ]);
  return rows[0]?.locked === true;
}

/**
 * Runs `work` while the session shows, every `everyMs`, that it is alive: stopping lanes can take longer than
 * idle_session_timeout (a slow Discord, a long rate-limit queue), and the server would otherwise end the session
 * and free every partition while their sends are in flight.
 */
export async function whileAlive<T>(
  session: LeaseSession,
  client: pg.Client,
  everyMs: number,
  work: () => Promise<T>,
): Promise<T> {
  const heartbeat = setInterval(() => void session.query(client, 'SELECT 1').catch(() => undefined), everyMs);
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}

/** 0..n-1 in random order: processes starting together reach for different partitions first. */
export function shuffled(n: number): number[] {
  const order = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(Math.random() * (i + 1));
    [order[i], order[j]] = [order[j] as number, order[i] as number];
  }
  return order;
}
