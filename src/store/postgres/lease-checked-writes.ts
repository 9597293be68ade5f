import { LeaseLostError, type Lease } from '../deliveries.js';
import type { Sql } from '../sql-dialect.js';
import type { Queryable } from './pg-sql.js';

/**
 * A lane's writes, made only while its lease is the partition's current one, in one statement with the check: one
 * round trip, where a transaction of the check and each write took six for a lane's confirm. The statement reads
 * the partition's lease row FOR SHARE before any write (each write's condition reads it): the next owner's epoch
 * bump (an UPDATE, pg-leases.ts's nextEpochs) waits for this statement's transaction, and a bump already committed
 * is seen here (READ COMMITTED reads the newest row version under a row lock) and no write is made. So a write
 * either commits before the partition changes hands, where the next owner sees it, or is refused. Only for writes
 * that need nothing read between them; run inside a transaction, the lock holds until it ends.
 */
export class LeaseCheckedWrites {
  private readonly text: string;

  /** `writes`: the queue's statements (pg-sql.ts), each an UPDATE or DELETE ending in its WHERE (no OR outside ()). */
  constructor(private readonly writes: ReadonlyArray<Sql<unknown, unknown[]>>) {
    let bound = LEASE_PARAMS;
    const parts = writes.map((write, index) => {
      if (!/\bWHERE\b/.test(write.text) || /\bRETURNING\b/.test(write.text)) {
        throw new Error(`a lease-checked write must end in its WHERE condition: ${write.text}`);
      }
      const shifted = write.text.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + bound}`);
      bound += placeholdersOf(write.text);
      return `write${index} AS (${shifted} AND (SELECT held FROM lease) RETURNING 1)`;
    });
    const changed = writes.map((_, index) => `(SELECT count(*) FROM write${index})::int AS changed${index}`);
    // With no lease (a caller outside the feed: tests, tools), every write is made.
    this.text = `WITH lease AS MATERIALIZED (
        SELECT $1::int IS NULL
          OR coalesce((SELECT epoch FROM feed_lease WHERE partition = $1 FOR SHARE), 0) = $2::bigint AS held
      ), ${parts.join(', ')}
      SELECT held, ${changed.join(', ')} FROM lease`;
  }

  /**
   * Makes every write with its parameters (in the order the writes were given) and resolves how many rows each
   * changed; or makes none and throws {@link LeaseLostError} when `lease` is no longer the partition's current one.
   */
  async run(db: Queryable, lease: Lease | undefined, params: ReadonlyArray<readonly unknown[]>): Promise<number[]> {
    if (params.length !== this.writes.length) throw new Error('one list of parameters for each write');
    const { rows } = await db.query<Record<string, unknown>>(this.text, [
      lease?.partition ?? null,
      lease?.epoch ?? null,
      ...params.flat(),
    ]);
    const row = rows[0];
    if (lease && row?.['held'] !== true) throw new LeaseLostError(lease.partition);
    return this.writes.map((_, index) => Number(row?.[`changed${index}`] ?? 0));
  }
}

/** The lease check's own parameters: the partition and the epoch. */
const LEASE_PARAMS = 2;

/** How many parameters a statement in PostgreSQL's dialect binds (`$1` … `$n`). */
function placeholdersOf(text: string): number {
  return Math.max(0, ...[...text.matchAll(/\$(\d+)/g)].map((match) => Number(match[1])));
}
