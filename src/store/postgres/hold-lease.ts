import type pg from 'pg';

import { LeaseLostError, type Lease } from '../deliveries.js';

/**
 * Refuses the transaction unless `lease` is the partition's current one, and keeps it so until commit: FOR SHARE
 * makes the next owner's epoch bump (an UPDATE) wait for this transaction, and a bump already committed is seen
 * here (READ COMMITTED reads the newest row version under a row lock). So a write either commits before the
 * partition changes hands, where the next owner sees it, or is refused. The bump is in pg-leases.ts (nextEpochs).
 */
export async function holdLease(client: pg.PoolClient, lease: Lease | undefined): Promise<void> {
  if (!lease) return;
  const { rows } = await client.query<{ epoch: string }>(
    'SELECT epoch FROM feed_lease WHERE partition = $1 FOR SHARE',
    [lease.partition],
  );
  // No row: no process has leased the partition yet (epoch 0).
  if (Number(rows[0]?.epoch ?? 0) !== lease.epoch) throw new LeaseLostError(lease.partition);
}
