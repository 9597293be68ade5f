import type pg from 'pg';

/**
 * Takes the identify turn of a bucket for the whole deployment, if it is free now (Discord allows
 * `max_concurrency` identifies per `spacingMs`, counted for the bot, not per process): 0 when taken, the next
 * turn starting `spacingMs` from now; else how long until the current turn ends, when the caller asks again.
 * Nothing is reserved ahead: a shard closed while it waits (given back, its process killed) holds no turn that
 * another would then wait out. One statement: the row's lock orders the processes that ask at once.
 */
export async function takeIdentifyTurn(
  db: Pick<pg.ClientBase, 'query'>,
  bucket: number,
  spacingMs: number,
): Promise<number> {
  const { rows } = await db.query<{ taken: boolean; wait_ms: number }>(
    `WITH taken AS (
       INSERT INTO gateway_identify (bucket, next_at)
       VALUES ($1, clock_timestamp() + make_interval(secs => $2 / 1000.0))
       ON CONFLICT (bucket) DO UPDATE SET next_at = EXCLUDED.next_at
         WHERE gateway_identify.next_at <= clock_timestamp()
       RETURNING bucket
     )
     SELECT EXISTS (SELECT 1 FROM taken) AS taken,
            coalesce((SELECT extract(epoch FROM next_at - clock_timestamp()) * 1000 FROM gateway_identify
                      WHERE bucket = $1), 0)::float8 AS wait_ms`,
    [bucket, spacingMs],
  );
  const row = rows[0];
  if (!row || row.taken) return 0;
  // At least a millisecond: 0 means taken.
  return Math.max(1, Math.ceil(row.wait_ms));
}
