import type pg from 'pg';

/** Runs `work` in one transaction on a pooled connection: committed if it returns, rolled back if it throws. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // The pool listens for a connection's errors only while it is idle: one lost while checked out (a server
  // restart, a failover) would be an unhandled 'error' event and end the process. The query under way fails
  // with it anyway, so here it is only noted, and the connection is not given back to the pool.
  let lost: Error | undefined;
  const onError = (error: Error) => {
    lost = error;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    if (!lost) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.off('error', onError);
    client.release(lost);
  }
}
