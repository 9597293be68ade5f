import { performance } from 'node:perf_hooks';
import pg from 'pg';

import type { Logger } from '../../base/logger.js';
import type { Lease } from '../deliveries.js';

/** The advisory lock class of a feed process's membership (the two-int form: class, slot). */
export const MEMBER_CLASS = 0x4252444d; // 'BRDM'
/** Member slots: more than any deployment runs feed processes. */
const MEMBER_SLOTS = 256;
/**
 * The share of the idle-session timeout this process trusts its leases for after the session last answered.
 * The server ends a silent session no sooner than the timeout after its last statement, and another process
 * takes the partitions only after that: stopping at 80 % leaves the rest as a margin for the lanes to stop.
 */
const LEASE_TRUST = 0.8;

/**
 * A feed process's lease session: one connection of its own, which holds a member lock (so the others count it)
 * and, through the caller, the partition and gateway locks. Session-level locks: the server releases them the
 * moment the session ends, however the process died, and `idle_session_timeout` ends the session of a process
 * that hangs. The session remembers when it last answered: the leases hold only as long as the server cannot
 * have ended it.
 */
export class LeaseSession {
  private client: pg.Client | undefined;
  /** The member slot this session holds, while it is open. */
  private slot: number | undefined;
  /** When the statement the session last answered was sent (performance.now()). */
  private aliveAt: number | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    private readonly idleTimeoutMs: number,
    private readonly logger: Logger,
  ) {}

  /** Whether the session answered recently enough that the server cannot have ended it yet. */
  trusted(): boolean {
    return this.aliveAt !== undefined && performance.now() - this.aliveAt < this.idleTimeoutMs * LEASE_TRUST;
  }

  /** Whether the session is open (a new one makes this process a member the others should hear of). */
  get isOpen(): boolean {
    return this.client !== undefined;
  }

  /** The session's connection while it is open (undefined: none now). */
  get connection(): pg.Client | undefined {
    return this.client;
  }

  /** How long ago the statement the session last answered was sent. */
  silentForMs(): number {
    return Math.round(performance.now() - (this.aliveAt ?? 0));
  }

  /** The session's connection, made (with its member lock) when there is none. */
  async open(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client(this.config);
    client.on('error', (error) => {
      // Handled by the next rebalance, which finds the session gone; the process must not crash here.
      this.logger.warn({ err: { message: error.message } }, 'the feed lease session broke');
    });
    await client.connect();
    try {
      await client.query(`SET idle_session_timeout = ${Math.round(this.idleTimeoutMs)}`);
      for (let slot = 0; slot < MEMBER_SLOTS; slot += 1) {
        const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1, $2) AS locked', [
          MEMBER_CLASS,
          slot,
        ]);
        if (rows[0]?.locked) {
          this.client = client;
          this.slot = slot;
          this.aliveAt = undefined;
          return client;
        }
      }
      throw new Error(`more than ${MEMBER_SLOTS} feed processes share this database`);
    } catch (error) {
      // Closed, not left open: a connection holding a member lock would count as a member that takes no share.
      await client.end().catch(() => undefined);
      throw error;
    }
  }

  /** A statement on the session; its answer shows the session was alive when it was sent. */
  async query<Row extends pg.QueryResultRow>(
    client: pg.Client,
    text: string,
    values: unknown[] = [],
  ): Promise<pg.QueryResult<Row>> {
    const sentAt = performance.now();
    const result = await client.query<Row>(text, values);
    if (client === this.client) this.aliveAt = Math.max(this.aliveAt ?? 0, sentAt);
    return result;
  }

  /**
   * The feed processes holding a member lock on this database now (their slots), and the member this one watches
   * (member-watch.ts): the next slot after its own, round the ring; undefined when it is alone.
   */
  async members(client: pg.Client): Promise<{ count: number; watched: number | undefined }> {
    const { rows } = await this.query<{ slot: number }>(
      client,
      `SELECT objid::int AS slot FROM pg_locks
       WHERE locktype = 'advisory' AND granted AND classid = $1 AND objsubid = 2
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
       ORDER BY objid`,
      [MEMBER_CLASS],
    );
    const others = rows.map((row) => row.slot).filter((slot) => slot !== this.slot);
    const own = this.slot ?? -1;
    return { count: Math.max(1, rows.length), watched: others.find((slot) => slot > own) ?? others[0] };
  }

  /**
   * A new epoch for each of these partitions, just locked: from this commit on, the previous owner's writes are
   * refused (the store checks the epoch), and its last ones, if any, are already committed and seen here.
   */
  async nextEpochs(client: pg.Client, partitions: number[]): Promise<Lease[]> {
    const { rows } = await this.query<{ partition: number; epoch: string }>(
      client,
      `INSERT INTO feed_lease (partition, epoch) SELECT partition, 1 FROM unnest($1::int[]) AS partition
       ON CONFLICT (partition) DO UPDATE SET epoch = feed_lease.epoch + 1
       RETURNING partition, epoch`,
      [partitions],
    );
    return rows.map((row) => ({ partition: row.partition, epoch: Number(row.epoch) }));
  }

  /**
   * Ends the session; the server frees every lock it holds. `wait: false` for a connection that gets no answers,
   * which may take long to close while nothing waits for it.
   */
  async close({ wait }: { wait: boolean }): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.slot = undefined;
    const ended = client?.end().catch(() => undefined);
    if (wait) await ended;
  }
}
