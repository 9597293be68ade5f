import type pg from 'pg';

/**
 * Reserves the next identify of a bucket for the whole deployment (Discord allows `max_concurrency` identifies per
 * `spacingMs`, counted for the bot, not per process) and says how long to wait for it. One statement: the row's
 * lock orders the processes that ask at once, and each leaves the next turn `spacingMs` after its own. A process
 * killed before it identified only wastes its turn.
 */
export async function identifyWaitMs(pool: pg.Pool, bucket: number, spacingMs: number): Promise<number> {
  const { rows } = await pool.query<{ wait_ms: number }>(
    `INSERT INTO gateway_identify (bucket, next_at) VALUES ($1, clock_timestamp() + make_interval(secs => $2 / 1000.0))
     ON CONFLICT (bucket) DO UPDATE
       SET next_at = greatest(gateway_identify.next_at, clock_timestamp()) + make_interval(secs => $2 / 1000.0)
     RETURNING (extract(epoch FROM next_at - clock_timestamp()) * 1000 - $2)::float8 AS wait_ms`,
    [bucket, spacingMs],
  );
  return Math.max(0, rows[0]?.wait_ms ?? 0);
}
